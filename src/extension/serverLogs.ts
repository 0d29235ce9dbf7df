import * as vscode from 'vscode';
import { taggedLogger, type Logger } from '../core/base/logger';
import { channelLogger } from './log';

/**
 * Each server's lines go to the "MinAgent" log (tagged `[name]`) and to its own log view, "MinAgent:
 * name", made on its first line, as VS Code's MCP support keeps one output per server. Show Logs on a
 * server opens its own view.
 */
export class ServerLogs implements vscode.Disposable {
  private readonly channels = new Map<string, vscode.LogOutputChannel>();
  private readonly mainLogger: Logger;

  constructor(private readonly main: vscode.LogOutputChannel) {
    this.mainLogger = channelLogger(main);
  }

  /** The logger a server's source and the hub write its lines through. */
  logger(name: string): Logger {
    const tagged = taggedLogger(this.mainLogger, name);
    const own = () => {
      const channel = this.channel(name);
      return channel ? channelLogger(channel) : undefined;
    };
    return {
      trace: (m) => (tagged.trace(m), own()?.trace(m)),
      info: (m) => (tagged.info(m), own()?.info(m)),
      warn: (m) => (tagged.warn(m), own()?.warn(m)),
      error: (m) => (tagged.error(m), own()?.error(m)),
    };
  }

  private disposed = false;

  private channel(name: string): vscode.LogOutputChannel | undefined {
    if (this.disposed) return undefined;
    let channel = this.channels.get(name);
    if (!channel)
      this.channels.set(name, (channel = vscode.window.createOutputChannel(`MinAgent: ${name}`, { log: true })));
    return channel;
  }

  /** Opens one server's log, or the whole "MinAgent" log. */
  show(name?: string): void {
    ((name !== undefined ? this.channel(name) : undefined) ?? this.main).show(true);
  }

  dispose(): void {
    this.disposed = true;
    for (const channel of this.channels.values()) channel.dispose();
    this.channels.clear();
  }
}
