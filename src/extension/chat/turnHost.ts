import type { ApprovalRequest } from '../../core/agentTypes/events';
import type { TurnHost } from '../../core/chat/turn';
import type { ServerHub } from '../../core/mcp/hub/serverHub';
import type { UserWait } from '../../core/mcp/clientRequests/clientRequests';
import { serversReady } from '../../core/chat/serversReady';
import type { Approvals } from './approvals';
import type { ModelChoices } from './models';
import type { ToolSelection } from './toolSelection';
import { setting } from '../trustedSettings';
import type { IconFiles } from '../icons/iconFiles';

const DEFAULT_SYSTEM =
  'You are MinAgent, an assistant inside VS Code. Use the available tools when they help answer; they come from MCP servers the user configured. Say which tool you used.';

/** The system prompt a turn sends (the budget meter measures the same). */
export function systemPrompt(): string {
  return setting<string>('chat.systemPrompt', '') || DEFAULT_SYSTEM;
}

/** What a turn needs, from VS Code: the selected model, the settings, the tool selection and approvals. */
export function vscodeTurnHost(
  hub: ServerHub,
  models: ModelChoices,
  tools: ToolSelection,
  approvals: Approvals,
  userWait: UserWait,
  icons?: IconFiles,
): TurnHost {
  return {
    look: (name, server) => {
      const tool = hub.registry.get(name);
      const icon =
        icons?.dataUri(tool?.icons) ??
        (server !== undefined ? icons?.dataUri(hub.catalog.serverInfo(server)?.icons) : undefined);
      return {
        ...(tool?.title ? { title: tool.title } : {}),
        ...(icon ? { icon } : {}),
        ...(tool?.app ? { app: tool.app } : {}),
      };
    },
    registry: hub.registry,
    createModel: () => models.create(),
    modelName: () => models.choice(models.selected())?.label,
    agentOptions: () => {
      const idle = setting<number>('chat.idleTimeout', 120);
      return {
        system: systemPrompt(),
        // The servers' instructions (bounded, switchable per server with "instructions": false).
        instructions: () => hub.catalog.instructions(),
        maxSteps: setting<number>('chat.maxSteps', 20),
        ...(idle > 0 ? { idleTimeoutMs: idle * 1000 } : {}),
        userWaitMs: (server: string) => userWait.waitedMs(server),
      };
    },
    offer: tools.offer,
    whenServersReady: (signal, onWaiting) => serversReady(hub, signal, { onWaiting }),
    whyUnavailable: (name) => tools.whyUnavailable(name),
    preapproval: (req: ApprovalRequest) => approvals.preapproval(req),
    askNote: (req: ApprovalRequest) => approvals.askNote(req),
    ask: (req, signal) => approvals.ask(req, signal),
  };
}
