import type { SafeIcon } from '../../toolRegistry/toolTypes';
import type { ListProblem } from './paging';

/** Where icons come from: their server, and what that server may point at. */
export interface IconContext {
  server: string;
  /** The origin of an HTTP server's URL; http(s) icons must come from it. Absent for stdio servers. */
  origin?: string;
  /** True for servers on this machine (stdio): only they may name `file:` icons. */
  local: boolean;
}

/** Image types an icon may have. SVG is allowed because icons are shown only as `<img>`, where scripts never run. */
export const ICON_TYPES: ReadonlyMap<string, readonly string[]> = new Map([
  ['image/png', ['.png']],
  ['image/jpeg', ['.jpg', '.jpeg']],
  ['image/gif', ['.gif']],
  ['image/webp', ['.webp']],
  ['image/svg+xml', ['.svg']],
]);
const MAX_ICONS = 8;
/** Largest `data:` icon, in characters of its URI. */
export const MAX_DATA_ICON_CHARS = 256 * 1024;

/**
 * Keeps the icons of one server, tool, prompt or resource that are safe to show: an allowed image
 * type; a `data:` image; an http(s) URL on the server's own origin; a `file:` URL only from a local
 * server. Each refused icon is a problem naming the server, the item and why.
 */
export function checkIcons(raw: unknown, ctx: IconContext, item: string, problems: ListProblem[]): SafeIcon[] {
  if (raw === undefined) return [];
  const refuse = (why: string) =>
    problems.push({
      server: ctx.server,
      item,
      message: `an icon of ${item} from server "${ctx.server}" was refused: ${why}`,
    });
  if (!Array.isArray(raw)) {
    refuse('"icons" is not an array');
    return [];
  }
  const icons: SafeIcon[] = [];
  for (const entry of raw.slice(0, MAX_ICONS)) {
    const icon = checkIcon(entry, ctx);
    if (typeof icon === 'string') refuse(icon);
    else icons.push(icon);
  }
  if (raw.length > MAX_ICONS) refuse(`only the first ${MAX_ICONS} of ${raw.length} icons are kept`);
  return icons;
}

/** One icon, or the reason it is refused. */
export function checkIcon(entry: unknown, ctx: IconContext): SafeIcon | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'not an object';
  const e = entry as Record<string, unknown>;
  if (typeof e.src !== 'string' || !e.src) return 'no "src"';
  const shown = e.src.length > 80 ? `${e.src.slice(0, 80)}…` : e.src;
  let url: URL;
  try {
    url = new URL(e.src);
  } catch {
    return `"${shown}" is not an absolute URL`;
  }
  const declared = typeof e.mimeType === 'string' ? e.mimeType.toLowerCase().split(';')[0]!.trim() : undefined;
  if (declared !== undefined && !ICON_TYPES.has(declared))
    return `type "${declared}" is not an allowed image type (${[...ICON_TYPES.keys()].join(', ')})`;
  let mimeType: string | undefined;
  switch (url.protocol) {
    case 'data:': {
      if (e.src.length > MAX_DATA_ICON_CHARS)
        return `a data: icon of ${e.src.length} characters is over the ${MAX_DATA_ICON_CHARS} limit`;
      const media = /^data:([^;,]*)/i.exec(e.src)?.[1]?.toLowerCase().trim() ?? '';
      if (!ICON_TYPES.has(media)) return `a data: URL of type "${media || 'text/plain'}" is not an allowed image type`;
      if (declared !== undefined && declared !== media)
        return `its data: URL is "${media}" but it claims "${declared}"`;
      mimeType = media;
      break;
    }
    case 'http:':
    case 'https:':
      if (url.username || url.password) return `"${url.origin}" URL carries credentials`;
      if (ctx.origin === undefined)
        return `"${shown}" is on the web but the server is not (http(s) icons must come from the server's own origin)`;
      if (url.origin !== ctx.origin) return `"${url.origin}" is not the server's own origin "${ctx.origin}"`;
      break;
    case 'file:':
      if (!ctx.local) return `"${shown}" is a file: URL from a remote server (only local servers may name files)`;
      break;
    default:
      return `the "${url.protocol}" scheme is not allowed (data:, http(s): on the server's origin, or file: for local servers)`;
  }
  mimeType ??= declared ?? typeByExtension(url.pathname);
  if (!mimeType) return `"${shown}" has no "mimeType" and no image file extension`;
  const icon: SafeIcon = { src: e.src, mimeType };
  const sizes = Array.isArray(e.sizes)
    ? e.sizes.filter((s): s is string => typeof s === 'string' && /^(any|\d{1,5}x\d{1,5})$/.test(s))
    : [];
  if (sizes.length) icon.sizes = sizes;
  if (e.theme === 'light' || e.theme === 'dark') icon.theme = e.theme;
  return icon;
}

function typeByExtension(path: string): string | undefined {
  const lower = path.toLowerCase();
  for (const [type, exts] of ICON_TYPES) if (exts.some((x) => lower.endsWith(x))) return type;
  return undefined;
}

/** The icon context of a server entry. */
export function iconContext(server: string, config: { type: string; url?: string }): IconContext {
  if (config.type === 'stdio' || config.url === undefined) return { server, local: true };
  try {
    const url = new URL(config.url);
    // A server on a local socket has no web origin: its icons are embedded (data:) ones, as a process's are.
    if (url.protocol === 'unix:' || url.protocol === 'pipe:') return { server, local: true };
    return { server, origin: url.origin, local: false };
  } catch {
    return { server, local: false };
  }
}
