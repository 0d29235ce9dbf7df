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
  const warn = (setting: string, message: string) =>
    problems.push({ server: '', field: `minagent.${setting}`, message, severity: 'warning' });
  const oneOf = <K extends 'conflictPolicy' | 'serverPriority'>(key: K, allowed: readonly HubSettings[K][]) => {
    const v = get(key);
    if (v === undefined) return;
    if (allowed.includes(v as HubSettings[K])) s[key] = v as HubSettings[K];
    else warn(key, `must be one of ${allowed.join(', ')}; using "${s[key]}"`);
  };
  const num = (key: keyof HubSettings & `${string}${'Ms' | 'Chars'}`, setting: string) => {
    const v = get(setting);
    if (v === undefined) return;
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) (s[key] as number) = v;
    else warn(setting, `must be a positive integer; using ${s[key]}`);
  };
  oneOf('conflictPolicy', CONFLICT_POLICIES);
  num('connectTimeoutMs', 'connectTimeout');
  num('probeTimeoutMs', 'probeTimeout');
  num('callTimeoutMs', 'callTimeout');
  num('maxOutputChars', 'maxOutputChars');
  oneOf('serverPriority', SERVER_PRIORITIES);
  return s;
}
