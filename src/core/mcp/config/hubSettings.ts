import type { ConfigProblem } from './serverConfig';

/** How a clash between tool names of different servers is resolved. Overwriting is never a policy. */
export type ConflictPolicy = 'prefix' | 'prefixAll' | 'error';
export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['prefix', 'prefixAll', 'error'];

/** Settings besides the servers, with their defaults. */
export interface HubSettings {
  conflictPolicy: ConflictPolicy;
  connectTimeoutMs: number;
  /** How long the era probe (`server/discover`) waits for an answer before the 2025 handshake is tried. */
  probeTimeoutMs: number;
  callTimeoutMs: number;
  maxOutputChars: number;
  /** `low`: stdio servers run below the editor (nice 10); `normal`: at the user's priority. */
  serverPriority: ServerPriority;
}

export const SERVER_PRIORITIES = ['normal', 'low'] as const;
export type ServerPriority = (typeof SERVER_PRIORITIES)[number];

export const DEFAULT_HUB_SETTINGS: HubSettings = {
  conflictPolicy: 'prefix',
  connectTimeoutMs: 30_000,
  probeTimeoutMs: 15_000,
  callTimeoutMs: 60_000,
  maxOutputChars: 50_000,
  serverPriority: 'normal',
};

/** Reads the hub settings from a flat `minagent.*` map; a bad value is reported and the default used. */
export function parseHubSettings(get: (key: string) => unknown, problems: ConfigProblem[]): HubSettings {
  const s = { ...DEFAULT_HUB_SETTINGS };
  const policy = get('conflictPolicy');
  if (policy !== undefined) {
    if (CONFLICT_POLICIES.includes(policy as ConflictPolicy)) s.conflictPolicy = policy as ConflictPolicy;
    else
      problems.push({
        server: '',
        field: 'minagent.conflictPolicy',
        message: `must be one of ${CONFLICT_POLICIES.join(', ')}; using "prefix"`,
        severity: 'warning',
      });
  }
  const num = (key: keyof HubSettings & `${string}${'Ms' | 'Chars'}`, setting: string) => {
    const v = get(setting);
    if (v === undefined) return;
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) (s[key] as number) = v;
    else
      problems.push({
        server: '',
        field: `minagent.${setting}`,
        message: `must be a positive integer; using ${s[key]}`,
        severity: 'warning',
      });
  };
  num('connectTimeoutMs', 'connectTimeout');
  num('probeTimeoutMs', 'probeTimeout');
  num('callTimeoutMs', 'callTimeout');
  num('maxOutputChars', 'maxOutputChars');
  const priority = get('serverPriority');
  if (priority !== undefined) {
    if (SERVER_PRIORITIES.includes(priority as ServerPriority)) s.serverPriority = priority as ServerPriority;
    else
      problems.push({
        server: '',
        field: 'minagent.serverPriority',
        message: `must be one of ${SERVER_PRIORITIES.join(', ')}; using "normal"`,
        severity: 'warning',
      });
  }
  return s;
}
