import { Emitter, type Disposable } from '../../base/event';
import type { Tool } from '../../toolRegistry/toolRegistry';
import type { HubSettings } from '../config/hubSettings';
import type { ServerConfig } from '../config/serverConfig';
import type {
  Completion,
  FeatureError,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  PromptResult,
  ReadResourceResult,
  ServerIdentityInfo,
} from '../features/featureTypes';
import type { FeatureKind } from '../features/features';
import { instructionsSection } from '../features/instructions';
import { assignNames, type NamingProblem } from '../tools/naming';
import type { ListProblem } from '../features/paging';
import { READ_RESOURCE, readResourceTool } from '../features/readResourceTool';
import { entryDigest, LOAD_SKILL, loadSkillTool } from '../features/loadSkillTool';
import type { McpSkill, SkillText } from '../features/skills';
import type { McpToolSource } from '../connection/source';

/** A prompt with its name in the merged list: `review`, or `server.review` after a clash (as for tools). */
export interface NamedPrompt extends McpPrompt {
  name: string;
  renamed?: string;
}

/** What the catalog needs from its hub. */
export interface CatalogHost {
  /** The configured servers in settings order, with their live sources. */
  servers(): Array<{ config: ServerConfig; source: McpToolSource | undefined }>;
  settings(): HubSettings;
}

/**
 * The hub's view of every server's resources, templates and prompts, merged in settings order:
 * prompts named by the tools' conflict policy, resources addressed by (server, URI) since URIs
 * cannot be prefixed. Reads, gets, completions and subscriptions route to the right server and
 * resolve to a result or `{error}`, never a throw.
 */
export class HubCatalog implements Disposable {
  private readonly onDidChangeResourcesEmitter = new Emitter<void>();
  private readonly onDidChangePromptsEmitter = new Emitter<void>();
  private readonly onDidUpdateResourceEmitter = new Emitter<{ server: string; uri: string }>();
  /** Fires when any server's resources or templates may have changed (a list change, a server up or down). */
  readonly onDidChangeResources = this.onDidChangeResourcesEmitter.event;
  /** Fires when the merged prompts may have changed. */
  readonly onDidChangePrompts = this.onDidChangePromptsEmitter.event;
  /** Fires when a server says a subscribed resource changed. */
  readonly onDidUpdateResource = this.onDidUpdateResourceEmitter.event;
  private builtin: { key: string; tool: Tool } | undefined;
  private skillTool: { key: string; tool: Tool } | undefined;

  constructor(private readonly host: CatalogHost) {}

  /** Called by the hub: a server's lists changed, or a server started or stopped (kind undefined). */
  changed(kind?: FeatureKind): void {
    if (kind !== 'prompts') this.onDidChangeResourcesEmitter.fire();
    if (kind !== 'resources') this.onDidChangePromptsEmitter.fire();
  }

  /** Called by the hub when a server reports an update of a subscribed resource. */
  updated(server: string, uri: string): void {
    this.onDidUpdateResourceEmitter.fire({ server, uri });
  }

  private running(): Array<{ config: ServerConfig; source: McpToolSource }> {
    return this.host
      .servers()
      .flatMap(({ config, source }) => (source?.state.kind === 'running' ? [{ config, source }] : []));
  }

  private source(server: string): McpToolSource | undefined {
    return this.host.servers().find((s) => s.config.name === server)?.source;
  }

  resources(): McpResource[] {
    return this.running().flatMap(({ source }) => source.features.resources);
  }

  templates(): McpResourceTemplate[] {
    return this.running().flatMap(({ source }) => source.features.templates);
  }

  /** Every running server's skills in settings order, each by its server and URI (two servers' names may clash). */
  skills(): McpSkill[] {
    return this.running().flatMap(({ source }) => source.features.skills);
  }

  /** One file of a server's skill (its SKILL.md by default), checked against the skill's entry. */
  readSkill(server: string, uri: string, ref?: string): Promise<SkillText | FeatureError> {
    const source = this.source(server);
    if (!source) return Promise.resolve(this.unknownServer(server));
    return source.features.readSkill(uri, ref);
  }

  /** The servers that list a resource with this URI, in settings order (more than one is a conflict by URI). */
  serversWithResource(uri: string): string[] {
    return this.running().flatMap(({ config, source }) =>
      source.features.resources.some((r) => r.uri === uri) ? [config.name] : [],
    );
  }

  /** Every prompt under its merged name, in settings order, and the naming problems. */
  promptsWithProblems(): { prompts: NamedPrompt[]; problems: NamingProblem[] } {
    const running = this.running();
    const { assignments, problems } = assignNames(
      running.map(({ config, source }) => ({
        server: config.name,
        ...(config.namespace !== undefined ? { namespace: config.namespace } : {}),
        tools: source.features.prompts.map((p) => p.remoteName),
      })),
      this.host.settings().conflictPolicy,
      'prompt',
    );
    const prompts = assignments.map((a) => {
      const prompt = running
        .find((r) => r.config.name === a.server)!
        .source.features.prompts.find((p) => p.remoteName === a.remoteName)!;
      return { ...prompt, name: a.name, ...(a.renamed ? { renamed: a.renamed } : {}) };
    });
    return { prompts, problems };
  }

  prompts(): NamedPrompt[] {
    return this.promptsWithProblems().prompts;
  }

  /** Problems with the servers' resource and prompt lists and icons. */
  problems(): ListProblem[] {
    return this.running().flatMap(({ source }) => source.features.problems);
  }

  /** The identity (title, version, safe icons) a running server reported. */
  serverInfo(server: string): ServerIdentityInfo | undefined {
    const source = this.source(server);
    return source?.state.kind === 'running' ? source.features.info : undefined;
  }

  readResource(server: string, uri: string, signal?: AbortSignal): Promise<ReadResourceResult | FeatureError> {
    const source = this.source(server);
    if (!source) return Promise.resolve(this.unknownServer(server));
    return source.features.read(uri, signal);
  }

  /** Gets a prompt by its merged name (`review` or `server.review`). */
  getPrompt(name: string, args: Record<string, string> = {}): Promise<PromptResult | FeatureError> {
    const prompt = this.prompts().find((p) => p.name === name);
    if (!prompt) return Promise.resolve(this.unknownPrompt(name));
    const missing = prompt.arguments.filter((a) => a.required && (args[a.name] === undefined || args[a.name] === ''));
    if (missing.length)
      return Promise.resolve({ error: `prompt "${name}" needs ${missing.map((m) => `"${m.name}"`).join(', ')}` });
    return this.source(prompt.server)!.features.getPrompt(prompt.remoteName, args);
  }

  /** Completions for an argument of a prompt (by merged name). */
  completePrompt(
    name: string,
    argument: string,
    value: string,
    context?: Record<string, string>,
  ): Promise<Completion | FeatureError> {
    const prompt = this.prompts().find((p) => p.name === name);
    if (!prompt) return Promise.resolve(this.unknownPrompt(name));
    return this.source(prompt.server)!.features.complete(
      { type: 'ref/prompt', name: prompt.remoteName },
      { name: argument, value },
      context,
    );
  }

  /** Completions for a variable of a server's resource template. */
  completeTemplate(
    server: string,
    uriTemplate: string,
    variable: string,
    value: string,
    context?: Record<string, string>,
  ): Promise<Completion | FeatureError> {
    const source = this.source(server);
    if (!source) return Promise.resolve(this.unknownServer(server));
    return source.features.complete({ type: 'ref/resource', uri: uriTemplate }, { name: variable, value }, context);
  }

  /**
   * Subscribes to a resource's updates (see onDidUpdateResource); dispose to unsubscribe. Ends with the server's
   * session.
   */
  subscribe(server: string, uri: string): Promise<Disposable | FeatureError> {
    const source = this.source(server);
    if (!source) return Promise.resolve(this.unknownServer(server));
    return source.features.subscribe(uri);
  }

  /** One running server's own instructions, as it sent them (tool search indexes them with its tools). */
  serverInstructions(server: string): string | undefined {
    return this.running().find(({ config }) => config.name === server)?.source.features.instructions;
  }

  /**
   * The servers' instructions as a system-prompt section (bounded), skipping servers whose entry says `"instructions":
   * false`.
   */
  instructions(): string {
    return instructionsSection(
      this.running().flatMap(({ config, source }) =>
        config.instructions !== false && source.features.instructions
          ? [{ server: config.name, instructions: source.features.instructions }]
          : [],
      ),
    );
  }

  /**
   * The built-in read_resource tool while some server has resources or templates; named
   * `read_resource` unless a server's tool already is (then `minagent.read_resource`).
   */
  builtinTools(taken: ReadonlySet<string>): Tool[] {
    return [...this.readResourceTools(taken), ...this.loadSkillTools(taken)];
  }

  /** The built-in load_skill while some server offers skills (`minagent.load_skill` if a server's tool is named so). */
  private loadSkillTools(taken: ReadonlySet<string>): Tool[] {
    const skills = this.skills();
    if (!skills.length) {
      this.skillTool = undefined;
      return [];
    }
    const name = taken.has(LOAD_SKILL) ? `minagent.${LOAD_SKILL}` : LOAD_SKILL;
    const key = JSON.stringify([name, skills.map((s) => [s.server, s.uri, s.description, entryDigest(s)])]);
    if (this.skillTool?.key !== key)
      this.skillTool = {
        key,
        tool: loadSkillTool(
          name,
          skills,
          (skill, ref) => this.readSkill(skill.server, skill.uri, ref),
          () => this.host.settings().maxOutputChars,
        ),
      };
    return [this.skillTool.tool];
  }

  private readResourceTools(taken: ReadonlySet<string>): Tool[] {
    const servers = this.running()
      .filter(({ source }) => source.features.resources.length > 0 || source.features.templates.length > 0)
      .map(({ config, source }) => ({
        server: config.name,
        examples: source.features.resources
          .slice(0, 2)
          .map((r) => r.uri)
          .concat(source.features.templates.slice(0, 1).map((t) => t.uriTemplate)),
      }));
    if (!servers.length) {
      this.builtin = undefined;
      return [];
    }
    const name = taken.has(READ_RESOURCE) ? `minagent.${READ_RESOURCE}` : READ_RESOURCE;
    const key = JSON.stringify([name, servers]);
    // The same object while nothing changed, so the registry is not replaced for nothing.
    if (this.builtin?.key !== key)
      this.builtin = {
        key,
        tool: readResourceTool(
          name,
          servers,
          (s, u, signal) => this.readResource(s, u, signal),
          () => this.host.settings().maxOutputChars,
        ),
      };
    return [this.builtin.tool];
  }

  private unknownServer(server: string): FeatureError {
    const known = this.host.servers().map((s) => s.config.name);
    return { error: `unknown server "${server}"; servers: ${known.length ? known.join(', ') : '(none)'}` };
  }

  private unknownPrompt(name: string): FeatureError {
    const known = this.prompts().map((p) => p.name);
    return { error: `unknown prompt "${name}"; prompts: ${known.length ? known.join(', ') : '(none)'}` };
  }

  dispose(): void {
    this.onDidChangeResourcesEmitter.dispose();
    this.onDidChangePromptsEmitter.dispose();
    this.onDidUpdateResourceEmitter.dispose();
  }
}
