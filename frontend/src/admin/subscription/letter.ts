// The mailer's letter and the spec's rules for it: at least one list ('Add Mail List'), then a subject, a
// first section title and a first section description of 3 or more characters after trimming ('inputs is
// empty'). The preview, like the e-mail, shows a field only when it is longer than 2 characters.

export interface LetterSection {
  title: string;
  description: string;
  link: string;
  image: string;
}

export interface Letter {
  lists: string[];
  subject: string;
  sections: LetterSection[];
}

export const ADD_MAIL_LIST = 'Add Mail List';
export const INPUTS_EMPTY = 'inputs is empty';

export function emptySection(): LetterSection {
  return { title: '', description: '', link: '', image: '' };
}

export function emptyLetter(): Letter {
  return { lists: [], subject: '', sections: [emptySection()] };
}

const atLeast3 = (text: string | undefined) => Array.from((text ?? '').trim()).length >= 3;

/** The spec's message for a letter that cannot be previewed or sent, or null when it can. */
export function letterError(letter: Letter): string | null {
  if (letter.lists.length === 0) return ADD_MAIL_LIST;
  const first = letter.sections[0];
  if (!atLeast3(letter.subject) || !atLeast3(first?.title) || !atLeast3(first?.description)) return INPUTS_EMPTY;
  return null;
}

/** Whether the preview shows a field: longer than 2 characters. */
export function shown(text: string): boolean {
  return Array.from(text.trim()).length > 2;
}

/** Links and images in a letter are web addresses only. */
export function isWebAddress(text: string): boolean {
  return /^https?:\/\/\S+$/i.test(text.trim());
}

/**
 * The question under the spec's 'Are you sure?' before a mailing goes: the subject, and who gets it
 * ("Send 'Summer news' to 5 Newsletter subscribers?").
 */
export function sendQuestion(subject: string, lists: readonly string[], recipients: number): string {
  const people = recipients === 1 ? 'subscriber' : 'subscribers';
  const who =
    lists.length === 1
      ? `${recipients} ${lists[0]} ${people}`
      : `${recipients} ${people} of ${lists.slice(0, -1).join(', ')} and ${lists.at(-1)} (each once)`;
  return `Send '${subject.trim()}' to ${who}?`;
}
