import type * as vscode from 'vscode';
import type { SamplingGrants } from '../../core/mcp/clientRequests/sampling';

const KEY = 'minagent.sampling.allowed';

/** Servers allowed to sample without asking, for this workspace, by server identity (a changed server asks again). */
export class MementoGrants implements SamplingGrants {
  constructor(private readonly memento: vscode.Memento) {}

  has(identity: string): boolean {
    return this.list().some((g) => g.identity === identity);
  }

  async add(identity: string, server: string): Promise<void> {
    if (!this.has(identity)) await this.memento.update(KEY, [...this.list(), { identity, server }]);
  }

  private list(): Array<{ identity: string; server: string }> {
    const v = this.memento.get<unknown>(KEY);
    return Array.isArray(v)
      ? v.filter(
          (g): g is { identity: string; server: string } =>
            typeof g?.identity === 'string' && typeof g?.server === 'string',
        )
      : [];
  }
}
