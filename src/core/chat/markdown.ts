import type { Conversation } from './conversation/conversation';

/** The conversation as Markdown, tool calls and their full results included. */
export function conversationMarkdown(conversation: Conversation): string {
  const out: string[] = ['# MinAgent chat', ''];
  for (const item of conversation.items) {
    switch (item.kind) {
      case 'user':
        out.push('## You', '', item.text, '');
        // Server-written labels: as code, so they cannot become links or markup in the export.
        if (item.attachments?.length)
          out.push(...item.attachments.map((a) => `- attached: \`${a.replace(/`/g, "'")}\``), '');
        break;
      case 'assistant':
        if (item.text) out.push('## MinAgent', '', item.text, '');
        break;
      case 'tool': {
        const c = item.card;
        out.push(
          `### Tool \`${c.name}\`${c.server ? ` (server ${c.server})` : ''}: ${c.status}${c.durationMs !== undefined ? `, ${c.durationMs} ms` : ''}`,
          '',
        );
        if (c.approval) out.push(`> ${c.approval}`, '');
        out.push('```json', c.arguments, '```', '');
        if (c.result !== undefined) out.push('```', conversation.fullResult(item.id) ?? c.result, '```', '');
        break;
      }
      case 'notice':
        out.push(`> ${item.level}: ${item.text}`, '');
        break;
      case 'taskOutcome': {
        // A server's text: fenced longer than any run of backticks in it.
        const fence = '`'.repeat(Math.max(3, ...[...item.text.matchAll(/`+/g)].map((m) => m[0].length + 1)));
        out.push(
          `### Background task \`${item.name}\` (server ${item.server}): ${item.status}`,
          '',
          fence,
          item.text,
          fence,
          '',
        );
        break;
      }
      case 'prompt':
        out.push(`## You: prompt \`/${item.name}\` (server ${item.server})`, '');
        for (const m of item.messages)
          out.push(
            `**${m.role}**${m.images?.length ? ` (${m.images.length} image${m.images.length === 1 ? '' : 's'})` : ''}:`,
            '',
            '```',
            m.text,
            '```',
            '',
          );
        break;
    }
  }
  return out.join('\n');
}

/**
 * The export's tab title: the name the user gave the chat (`name`), else the start of its first message, on one line.
 */
export function exportTitle(conversation: Conversation, name?: string): string {
  const first = conversation.items.find((i) => i.kind === 'user');
  const title =
    name?.replace(/\s+/g, ' ').trim() ||
    (first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim().slice(0, 40) : '');
  return `MinAgent chat${title ? ` · ${title}` : ''}.md`;
}
