export { inputReferences } from '../core/mcp/config/storedInputs';
import * as vscode from 'vscode';
import { parseSettingsText } from '../core/settingsFile';

/** A workspace file whose servers can be used as they are, so users need not copy their configuration. */
export interface ServerFile {
  /** Path relative to the workspace folder, as shown to users. */
  label: '.vscode/mcp.json' | '.mcp.json';
  setting: 'discovery.vscodeMcpJson' | 'discovery.mcpJson';
  /** The key that holds the servers. */
  key: 'servers' | 'mcpServers';
}

export const SERVER_FILES: readonly ServerFile[] = [
  { label: '.vscode/mcp.json', setting: 'discovery.vscodeMcpJson', key: 'servers' },
  { label: '.mcp.json', setting: 'discovery.mcpJson', key: 'mcpServers' },
];

export interface InputDefinition {
  id: string;
  description?: string;
  password?: boolean;
  default?: string;
}

export interface FileServers {
  file: ServerFile;
  servers: Record<string, unknown>;
  inputs: InputDefinition[];
}

/** Reads one server file; a missing file is no servers, a broken one throws a message naming it. */
export async function readServerFile(folder: vscode.Uri, file: ServerFile): Promise<FileServers | undefined> {
  const uri = vscode.Uri.joinPath(folder, ...file.label.split('/'));
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch {
    return undefined;
  }
  const json = parseSettingsText(new TextDecoder().decode(bytes), file.label);
  const servers = json[file.key];
  const inputs = Array.isArray(json.inputs)
    ? (json.inputs as InputDefinition[]).filter((i) => i && typeof i.id === 'string')
    : [];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new Error(`${file.label}: "${file.key}" must be an object keyed by server name`);
  }
  return { file, servers: (servers ?? {}) as Record<string, unknown>, inputs };
}
