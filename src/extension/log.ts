import * as vscode from 'vscode';
import type { Logger } from '../core/logger';

/** The core's Logger backed by the "MinAgent" LogOutputChannel; lines carry their server tag. */
export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (m) => channel.trace(m),
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
  };
}
