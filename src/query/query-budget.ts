// The answer to a search stopped at its time budget (SANDBOX_QUERY_TIMEOUT_MS), worded once for both profiles.
import { AppError } from '../errors.js';

export function queryTooExpensive(budgetMs: number): AppError {
  return new AppError('query_too_expensive', `the search was stopped after ${budgetMs / 1000} s, its time budget; narrow it: `
    + 'fewer text terms (above all fewer negated ones and fewer of one or two characters), longer words, an after: or since: bound, or an inbox with fewer messages');
}
