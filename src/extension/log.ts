import type * as vscode from 'vscode';
import type { Logger } from '../core/base/logger';

/**
 * The core's Logger backed by the "MinAgent" LogOutputChannel; lines carry their server tag.
 * A line that cannot be written is dropped: VS Code throws "Channel has been closed" at a write to a
 * channel disposed on deactivation (a reload), and a log line must never fail the call that logs it.
 */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  const write = (level: keyof Logger) => (m: string) => {
    try {
      channel[level](m);
    } catch {
      // the channel is gone (the window is reloading or closing): nothing left to show the line in
    }
  };
  return { trace: write('trace'), info: write('info'), warn: write('warn'), error: write('error') };
}
