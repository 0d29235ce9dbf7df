/** A minimal event emitter in the shape of VS Code's `Event<T>`, so core code needs no editor. */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // A failing listener must not stop the others or the emitter's owner.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}

/** Owns disposables and disposes them in reverse order; anything added after disposal is disposed at once. */
export class DisposableStore implements Disposable {
  private items: Disposable[] = [];
  private disposed = false;

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const item of this.items.reverse()) {
      try {
        item.dispose();
      } catch {
        // keep disposing the rest
      }
    }
    this.items = [];
  }
}
