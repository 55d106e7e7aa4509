/**
 * One rule for people's names (issue 18): the family name first in Japanese, the given name first in English; the
 * kana name in brackets after the name; the honorific (様) where SPEC 2.13 asks for one, in Japanese. Screens use it
 * through the words' `personName` format (src/client/engine/i18n.ts), mails and forms' field order directly.
 */
import type { Language } from './languages.js';

export interface PersonName {
  firstName?: string | null;
  lastName?: string | null;
  kanaFirstName?: string | null;
  kanaLastName?: string | null;
}

export interface PersonNameOptions {
  /** The kana name in brackets after the name. */
  kana?: boolean;
  /** Only the kana name. */
  kanaOnly?: boolean;
  /** The honorific of a person addressed (Japanese only: English has none that fits every person). */
  honorific?: boolean;
}

const joined = (first: string | null | undefined, second: string | null | undefined) => [first, second].filter((part) => part).join(' ');

/** Family and given parts in the language's order. */
function inOrder(family: string | null | undefined, given: string | null | undefined, language: Language): string {
  return language === 'en' ? joined(given, family) : joined(family, given);
}

/** '山田 太郎（やまだ たろう）' in Japanese, 'Taro Yamada (やまだ たろう)'-style in English; '' when there is no name. */
export function formatPersonName(person: PersonName | null | undefined, language: Language, options: PersonNameOptions = {}): string {
  if (!person) return '';
  const kana = inOrder(person.kanaLastName, person.kanaFirstName, language);
  if (options.kanaOnly) return kana;
  const name = inOrder(person.lastName, person.firstName, language);
  if (name === '') return '';
  const withKana = options.kana && kana !== '' ? (language === 'en' ? `${name} (${kana})` : `${name}（${kana}）`) : name;
  return options.honorific && language === 'ja' ? `${withKana} 様` : withKana;
}

/** The name fields that come in pairs: the family name's field, then the given name's. */
const NAME_FIELD_PAIRS: ReadonlyArray<readonly [family: string, given: string]> = [
  ['lastName', 'firstName'],
  ['kanaLastName', 'kanaFirstName'],
  ['latinLastName', 'latinFirstName'],
];

/** A form's fields with each family/given pair in the language's order (the places the pair takes stay the same). */
export function nameFieldOrder(fields: readonly string[], language: Language): string[] {
  const ordered = [...fields];
  for (const [family, given] of NAME_FIELD_PAIRS) {
    const [familyAt, givenAt] = [ordered.indexOf(family), ordered.indexOf(given)];
    if (familyAt < 0 || givenAt < 0) continue;
    const [first, second] = language === 'en' ? [given, family] : [family, given];
    ordered[Math.min(familyAt, givenAt)] = first;
    ordered[Math.max(familyAt, givenAt)] = second;
  }
  return ordered;
}
