import type { Package } from './serverJson';

/**
 * How a package of each registry type runs: the launcher and the words before and after the runtime
 * arguments. A package name or version that a launcher could read as an option (`--registry=…`), a
 * path, a URL or a shell word is refused here, before anything is shown or written.
 */
export interface Runtime {
  /** The registry type (`npm`, `pypi`, `oci`, `nuget`). */
  type: string;
  /** The launcher this type runs with; also what must be on PATH. */
  command: string;
  /** Words before the runtime arguments (`-y` for npx, `run -i --rm` for docker). */
  lead: string[];
  /** The package as the launcher names it (`pkg@1.2.3`, `pkg==1.2.3`, `image:tag`). */
  spec: string;
  /** Words after the package and before its own arguments (dnx's `--yes`). */
  after: string[];
}

const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;
const PYPI_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const NUGET_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** An image reference: optional registry host and port, path, tag, digest (lower-case path, as OCI requires). */
const OCI_REF =
  /^[a-z0-9]+([._-][a-z0-9]+)*(\.[a-z0-9-]+)*(:[0-9]{1,5})?(\/[a-z0-9]+([._-]+[a-z0-9]+)*)*(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$/;
/** A version: an exact one (no ranges, no spaces, no leading dash). */
const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+!_-]*$/;

/** The registry types MinAgent can run; `mcpb` bundles are not among them. */
export const RUNTIME_TYPES = ['npm', 'pypi', 'oci', 'nuget'] as const;

/** The launcher of `pkg`, or a reason it cannot be run (named with the field at fault). */
export function runtimeOf(pkg: Package): Runtime | { problem: string } {
  const id = pkg.identifier;
  const version = pkg.version;
  const versionProblem =
    version !== undefined && (!VERSION.test(version) || version.length > 100 || version === 'latest')
      ? `its version "${version}" is not an exact version`
      : undefined;
  switch (pkg.registryType) {
    case 'npm':
      if (!NPM_NAME.test(id) || id.length > 214) return { problem: `"${id}" is not an npm package name` };
      if (!version) return { problem: `npm package "${id}" names no version` };
      if (versionProblem) return { problem: versionProblem };
      return { type: 'npm', command: 'npx', lead: ['-y'], spec: `${id}@${version}`, after: [] };
    case 'pypi':
      if (!PYPI_NAME.test(id) || id.length > 200) return { problem: `"${id}" is not a PyPI package name` };
      if (!version) return { problem: `PyPI package "${id}" names no version` };
      if (versionProblem) return { problem: versionProblem };
      return { type: 'pypi', command: 'uvx', lead: [], spec: `${id}==${version}`, after: [] };
    case 'nuget':
      if (!NUGET_NAME.test(id) || id.length > 200) return { problem: `"${id}" is not a NuGet package name` };
      if (!version) return { problem: `NuGet package "${id}" names no version` };
      if (versionProblem) return { problem: versionProblem };
      return { type: 'nuget', command: 'dnx', lead: [], spec: `${id}@${version}`, after: ['--yes'] };
    case 'oci': {
      // The tag is in the identifier (2025-10-11 on); an older document gives it as the version.
      const tagged = /[:@][^/]*$/.test(id.replace(/^[^/]*:[0-9]+\//, '')) || !version ? id : `${id}:${version}`;
      if (!OCI_REF.test(tagged) || tagged.length > 500) return { problem: `"${tagged}" is not an image reference` };
      if (versionProblem && !id.includes(':')) return { problem: versionProblem };
      return { type: 'oci', command: 'docker', lead: ['run', '-i', '--rm'], spec: tagged, after: [] };
    }
    case 'mcpb':
      return { problem: 'MCPB bundles are not supported (download and verify a bundle yourself)' };
    default:
      return { problem: `registry type "${pkg.registryType}" is not one MinAgent runs (${RUNTIME_TYPES.join(', ')})` };
  }
}
