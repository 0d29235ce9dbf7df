import { forApp, forModel, type Tool } from './toolRegistry';

/**
 * Tools as the Tools view and the status bar count them. The first number is what the context meter
 * counts (the tools the model can be sent); the ones a server keeps from the model (for its apps) are
 * listed in the view but said apart, so the three never disagree silently.
 */
export interface ToolCounts {
  /** Tools the model may be sent, switched off ones included. */
  model: number;
  /** Of those, switched off one by one for this workspace. */
  off: number;
  /** Kept by their server for its apps alone: listed, never sent to the model. */
  appOnly: number;
  /** Kept by their server from the model and from apps. */
  hidden: number;
  /** Left out by their server's entry (its `tools` list). */
  leftOut: number;
}

export function countTools(tools: readonly Tool[], switchedOn: (tool: Tool) => boolean = () => true): ToolCounts {
  const counts: ToolCounts = { model: 0, off: 0, appOnly: 0, hidden: 0, leftOut: 0 };
  for (const t of tools) {
    if (t.leftOutByEntry) counts.leftOut++;
    else if (!forModel(t)) counts[forApp(t) ? 'appOnly' : 'hidden']++;
    else {
      counts.model++;
      if (!switchedOn(t)) counts.off++;
    }
  }
  return counts;
}

/**
 * "3 tools", "2 of 3 tools": what the model can be sent, as the context meter counts. Short enough
 * for a server's row at the sidebar's default width; the tools not counted are said in the tooltip
 * (uncountedNote) and marked on their own rows ("apps only").
 */
export function toolCountText(c: ToolCounts): string {
  return c.off ? `${c.model - c.off} of ${c.model} tools` : `${c.model} tool${c.model === 1 ? '' : 's'}`;
}

/** Why the tools not counted are not (for a tooltip), or undefined when every tool counts. */
export function uncountedNote(c: ToolCounts): string | undefined {
  const parts = [
    ...(c.appOnly
      ? [
          `${c.appOnly} app-only tool${c.appOnly === 1 ? ' is' : 's are'} kept by ${c.appOnly === 1 ? 'its' : 'their'} server for its apps`,
        ]
      : []),
    ...(c.hidden ? [`${c.hidden} tool${c.hidden === 1 ? ' is' : 's are'} kept from the model and from apps`] : []),
    ...(c.leftOut
      ? [`${c.leftOut} tool${c.leftOut === 1 ? ' is' : 's are'} left out by the server's "tools" list in its entry`]
      : []),
  ];
  return parts.length
    ? `${parts.join('; ')}: listed, never sent to the model, and not in the context meter's count.`
    : undefined;
}
