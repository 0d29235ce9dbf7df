import type { Client, ClientOptions } from '@modelcontextprotocol/client';
import { Emitter, type Disposable } from '../../base/event';
import { errorMessage } from '../../toolRegistry/toolRegistry';
import type {
  Completion,
  FeatureHost,
  CompletionRef,
  FeatureError,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  PromptResult,
  ReadResourceResult,
  ServerIdentityInfo,
} from './featureTypes';
import { checkIcons, type IconContext } from './icons';
import { boundInstructions } from './instructions';
import { ListFreshness, shorterTtl } from './freshness';
import { listPages, type ListProblem } from './paging';
import { complete, getPrompt, parsePrompts } from './prompts';
import { parseResources, parseTemplates, readResource } from './resources';
import { ResourceSubscriptions } from './resourceSubscriptions';
import { listSkills, readSkillFile, type McpSkill, type SkillText } from './skills';

export type { FeatureHost };

export type FeatureKind = 'resources' | 'prompts';

/**
 * Everything a server offers besides tools: resources, templates and prompts (listed page by page,
 * cached, refreshed on `list_changed`), reads, prompt gets, completions, subscriptions, and the
 * server's instructions and identity. Era-agnostic: it uses only calls the SDK offers in both the
 * initialize era and the 2026-07-28 one. Nothing here throws; a failure is `{error}`.
 */
export class ServerFeatures implements Disposable {
  resources: readonly McpResource[] = [];
  templates: readonly McpResourceTemplate[] = [];
  prompts: readonly McpPrompt[] = [];
  /** The skills it offers (the Skills extension), by SKILL.md URI. */
  skills: readonly McpSkill[] = [];
  /** Items that were skipped or changed, and refused icons. */
  problems: ListProblem[] = [];
  /** The server's instructions, bounded (see boundInstructions). */
  instructions: string | undefined;
  info: ServerIdentityInfo = { icons: [] };
  private readonly subscriptions: ResourceSubscriptions;
  /** When the resources (with templates) and prompts lists go stale, for the servers that say (`ttlMs`). */
  private readonly freshness = new ListFreshness<FeatureKind>();
  private readonly onDidChangeEmitter = new Emitter<FeatureKind>();
  private readonly onDidUpdateResourceEmitter = new Emitter<string>();
  /** Fires when the server's resources (and templates) or prompts changed. */
  readonly onDidChange = this.onDidChangeEmitter.event;
  /** Fires with the URI of a subscribed resource the server says changed. */
  readonly onDidUpdateResource = this.onDidUpdateResourceEmitter.event;

  constructor(
    readonly server: string,
    private readonly icons: IconContext,
    private readonly host: FeatureHost,
  ) {
    this.subscriptions = new ResourceSubscriptions(server, host);
  }

  /** The `listChanged` options for the client: refresh our own tolerant lists, debounced. */
  listChangedOptions(): Pick<NonNullable<ClientOptions['listChanged']>, 'prompts' | 'resources'> {
    return {
      prompts: { debounceMs: 300, autoRefresh: false, onChanged: () => void this.refresh('prompts') },
      resources: { debounceMs: 300, autoRefresh: false, onChanged: () => void this.refresh('resources') },
    };
  }

  /** Reads what the connection told us and lists everything the server offers; never throws. */
  async load(client: Client, timeoutMs = this.host.timeoutMs()): Promise<void> {
    client.setNotificationHandler('notifications/resources/updated', (n) =>
      this.onDidUpdateResourceEmitter.fire(n.params.uri),
    );
    this.instructions = boundInstructions(client.getInstructions());
    const version = client.getServerVersion();
    const problems: ListProblem[] = [];
    this.info = version
      ? {
          name: version.name,
          version: version.version,
          ...(version.title !== undefined ? { title: version.title } : {}),
          ...(version.websiteUrl !== undefined ? { websiteUrl: version.websiteUrl } : {}),
          icons: checkIcons((version as { icons?: unknown }).icons, this.icons, 'the server', problems),
        }
      : { icons: [] };
    this.problems = problems;
    const skillProblems: ListProblem[] = [];
    const [skills] = await Promise.all([
      listSkills(client, this.server, skillProblems),
      this.refresh('resources', client, false, timeoutMs),
      this.refresh('prompts', client, false, timeoutMs),
    ]);
    this.skills = skills;
    this.problems = [...this.problems, ...skillProblems];
    for (const p of skillProblems) this.host.log.warn(p.message);
  }

  private async refresh(
    kind: FeatureKind,
    client = this.host.client(),
    fire = true,
    timeout = this.host.timeoutMs(),
  ): Promise<void> {
    if (!client) return;
    const caps = client.getServerCapabilities();
    const problems: ListProblem[] = [];
    const before = fire ? this.snapshot(kind) : undefined;
    try {
      if (kind === 'resources') {
        if (!caps?.resources) return;
        const [resources, templates] = await Promise.all([
          listPages(client, 'resources/list', 'resources', this.server, timeout),
          listPages(client, 'resources/templates/list', 'resourceTemplates', this.server, timeout).catch(
            (err: unknown) => {
              problems.push({
                server: this.server,
                item: '',
                message: `server "${this.server}" failed to list resource templates: ${this.redacted(errorMessage(err))}`,
              });
              return { items: [], problems: [], ttlMs: undefined };
            },
          ),
        ]);
        problems.push(...resources.problems, ...templates.problems);
        this.freshness.fetched('resources', shorterTtl(resources.ttlMs, templates.ttlMs));
        this.resources = parseResources(resources.items, this.icons, problems);
        this.templates = parseTemplates(templates.items, this.icons, problems);
      } else {
        if (!caps?.prompts) return;
        const prompts = await listPages(client, 'prompts/list', 'prompts', this.server, timeout);
        problems.push(...prompts.problems);
        this.freshness.fetched('prompts', prompts.ttlMs);
        this.prompts = parsePrompts(prompts.items, this.icons, problems);
      }
    } catch (err) {
      problems.push({
        server: this.server,
        item: '',
        message: `server "${this.server}" failed to list its ${kind}: ${this.redacted(errorMessage(err))}`,
      });
    }
    this.problems = [...this.problems.filter((p) => !isProblemOf(p, kind)), ...problems.map((p) => ({ ...p, kind }))];
    for (const p of problems) this.host.log.warn(p.message);
    // Listed again (its TTL ran out, or a `list_changed` for nothing) and the same: no change to tell.
    if (fire && before !== this.snapshot(kind)) {
      this.host.log.info(`${kind} list changed`);
      this.onDidChangeEmitter.fire(kind);
    }
  }

  private snapshot(kind: FeatureKind): string {
    const lists = kind === 'resources' ? [this.resources, this.templates] : [this.prompts];
    return JSON.stringify([lists, this.problems.filter((p) => isProblemOf(p, kind))]);
  }

  /**
   * Lists again each list whose TTL ran out, unless the server says it tells changes of it (`listChanged`): a TTL is
   * how a server that does not tell keeps its clients current.
   */
  async refreshStale(): Promise<void> {
    const caps = this.host.client()?.getServerCapabilities();
    await Promise.all(
      (['resources', 'prompts'] as const)
        .filter((k) => !caps?.[k]?.listChanged && this.freshness.stale(k))
        .map((k) => this.refresh(k)),
    );
  }

  /** One file of one of its skills (SKILL.md by default), checked against the skill's entry. */
  readSkill(uri: string, ref?: string): Promise<SkillText | FeatureError> {
    const skill = this.skills.find((s) => s.uri === uri);
    if (!skill) return Promise.resolve({ error: `server "${this.server}" offers no skill ${JSON.stringify(uri)}` });
    return this.guard('resources', (c) => readSkillFile(c, skill, ref));
  }

  read(uri: string, signal?: AbortSignal): Promise<ReadResourceResult | FeatureError> {
    return this.guard('resources', (c) => readResource(c, this.server, uri, this.host.timeoutMs(), signal));
  }

  getPrompt(name: string, args: Record<string, string>): Promise<PromptResult | FeatureError> {
    return this.guard('prompts', (c) => getPrompt(c, this.server, name, args, this.host.timeoutMs()));
  }

  complete(
    ref: CompletionRef,
    argument: { name: string; value: string },
    context?: Record<string, string>,
  ): Promise<Completion | FeatureError> {
    return this.guard('completions', (c) => complete(c, ref, argument, context, this.host.timeoutMs()));
  }

  /**
   * Asks the server to say when a resource changes; updates fire onDidUpdateResource (see ResourceSubscriptions).
   */
  subscribe(uri: string): Promise<Disposable | FeatureError> {
    return this.subscriptions.subscribe(uri);
  }

  private async guard<T>(
    capability: 'resources' | 'prompts' | 'completions',
    run: (client: Client) => Promise<T>,
  ): Promise<T | FeatureError> {
    const client = this.host.client();
    if (!client) return { error: await this.host.describe(undefined) };
    if (!client.getServerCapabilities()?.[capability])
      return { error: `server "${this.server}" does not offer ${capability}` };
    try {
      return await run(client);
    } catch (err) {
      return { error: await this.host.describe(err) };
    }
  }

  private redacted(text: string): string {
    return this.host.redact ? this.host.redact(text) : text;
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.onDidChangeEmitter.dispose();
    this.onDidUpdateResourceEmitter.dispose();
  }
}

function isProblemOf(p: ListProblem & { kind?: FeatureKind }, kind: FeatureKind): boolean {
  return p.kind === kind;
}
