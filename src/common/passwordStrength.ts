/**
 * zxcvbn-ts with the common, English and Japanese dictionaries; the server checks the same score (issue 7 finding 14).
 * Several hundred KB: the browser loads it only when a password widget with a strength meter appears (PasswordWidget
 * imports this module dynamically; webpack makes it a chunk of its own), never in the initial bundle.
 */
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import * as ja from '@zxcvbn-ts/language-ja';

// language-ja's dictionary names have no language suffix (commonWords, firstnames…); suffix them as language-en does
const japanese = Object.fromEntries(Object.entries(ja.dictionary).map(([name, words]) => [`${name}-ja`, words]));

const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary, ...japanese },
  graphs: common.adjacencyGraphs,
  useLevenshteinDistance: true,
});

/** zxcvbn's score, 0 to 4; userInputs (name, e-mail…) count as guessable words. */
export function estimateScore(password: string, userInputs: string[] = []): number {
  if (password === '') return 0;
  return zxcvbn.check(password, userInputs).score;
}
