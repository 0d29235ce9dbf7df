import {
  ProtocolError,
  ProtocolErrorCode,
  type ElicitRequestFormParams,
  type ElicitRequestURLParams,
  type ElicitResult,
} from '@modelcontextprotocol/client';
import type { Logger } from '../../base/logger';
import { answerContent, FormSchemaError, parseFormSchema } from './formSchema';
import { validateAnswers } from '../../../shared/form';
import { plainText, safeUrl } from '../../../shared/serverText';
import type { ClientRequestUi } from './ui';

/** The longest message of a server's request shown to the user. */
export const MAX_MESSAGE_CHARS = 4000;

/**
 * Answers one `elicitation/create` of a server, whichever protocol era carried it (a 2025-11-25
 * request, or an `input_required` round of 2026-07-28): the SDK hands both to the same handler.
 * A form is checked, shown with its defaults, and its answer checked again here (the UI's word is
 * not taken for it) and sent as the user left it: a field they emptied gets no default back. A URL
 * is shown in full and opened only after the user agrees.
 */
export async function answerElicitation(
  server: string,
  params: ElicitRequestFormParams | ElicitRequestURLParams,
  ui: ClientRequestUi,
  log: Logger,
  signal: AbortSignal,
  /**
   * An `input_required` round of 2026-07-28: its answer is the outcome, so a URL's is given only once the user says
   * they are done there (a 2025 server hears of the end itself, and is answered when the URL opens).
   */
  untilDone = false,
): Promise<ElicitResult> {
  const message = plainText(params.message, MAX_MESSAGE_CHARS);
  if (params.mode === 'url') {
    const url = safeUrl(params.url);
    if ('refused' in url) {
      log.warn(`refused a URL elicitation: ${url.refused}`);
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `URL elicitation refused by the client: ${url.refused}`);
    }
    const ask = { server, message, url: url.href, host: url.host };
    const answer = await ui.askUrl(ask, signal);
    if (answer === 'accept' && !(await ui.openUrl(url.href))) {
      log.info(`URL elicitation for ${url.host}: accepted, then not opened`);
      return { action: 'cancel' };
    }
    if (answer === 'accept' && untilDone) {
      const done = await ui.awaitUrlDone(ask, signal);
      log.info(`URL elicitation for ${url.host}: opened, then ${done}`);
      return { action: done === 'done' ? 'accept' : 'cancel' };
    }
    log.info(`URL elicitation for ${url.host}: ${answer}`);
    return { action: answer };
  }
  let fields: ReturnType<typeof parseFormSchema>;
  try {
    fields = parseFormSchema(server, params.requestedSchema);
  } catch (err) {
    if (!(err instanceof FormSchemaError)) throw err;
    log.warn(err.message);
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, err.message);
  }
  const validate = (content: Record<string, unknown>) => validateAnswers(fields, content);
  const answer = await ui.askForm({ server, message, fields }, validate, signal);
  if (answer.action !== 'accept') {
    log.info(`elicitation form: ${answer.action}`);
    return { action: answer.action };
  }
  const errors = validate(answer.content);
  if (Object.keys(errors).length) {
    // The UI checks as the user types; an answer that still fails is not sent as if it were valid.
    log.warn(`elicitation form answer failed its own checks (${Object.values(errors).join('; ')}): cancelled`);
    return { action: 'cancel' };
  }
  log.info('elicitation form: accept');
  return { action: 'accept', content: answerContent(fields, answer.content) };
}
