/**
 * `npm run bench`: browser bundle sizes, the API pipeline's throughput next to a bare Fastify route, the authenticated
 * reads on PostgreSQL next to the same SQL through pg (bench/affiliations.ts; BENCH_DATABASE_URL), and the learner grid
 * next to bare react-spreadsheet in chromium (bench/grid.ts), the Users page's calls with 10,000 learners on PostgreSQL
 * (bench/users.ts) and the list painted in chromium (bench/usersPaint.ts), write routes with and without the audit trail (bench/audit.ts), cold page loads over an
 * emulated network (bench/coldLoad.ts), Lighthouse on the signed-in pages (bench/lighthouse.ts); then one table of every
 * budget (issue 20): its goal, the figure measured, the ratio and whether it holds.
 * BENCH_ONLY=bundle,api,reads,grid,users,audit,cold,lighthouse runs some of them; BENCH_ONLY=large (only when named: it
 * builds a large provider first, minutes) reads the pages at 10,000 organisations (bench/large.ts, npm run bench:large).
 */
import { benchAffiliations, type ReadResult } from './affiliations.js';
import { benchApi, type PipelineResult } from './api.js';
import { benchAudit } from './audit.js';
import { FIRST_LOAD_BUDGET_KB, type FirstLoad } from '../scripts/firstLoad.js';
import { benchBundle } from './bundle.js';
import { benchColdLoad, FIRST_DATA_CALL_GOAL_MS, JS_REQUESTS_GOAL, PROFILES, type ColdLoadRow } from './coldLoad.js';
import { benchGrid, GRID_TARGET, type GridResult } from './grid.js';
import { benchLarge } from './large.js';
import { benchLighthouse, lighthouseGoals } from './lighthouse.js';
import { benchUsers, type UsersResult } from './users.js';
import { benchUsersPaint, USERS_PAINT_BUDGET_MS, USERS_ROWS_BUDGET, type UsersPaintResult } from './usersPaint.js';

const FIRST_LOAD_BUDGET = FIRST_LOAD_BUDGET_KB * 1024;
const READ_THROUGHPUT = 0.9;
const READ_TAIL = 1.5;

const only = process.env.BENCH_ONLY?.split(',');
const runs = (part: string) => !only || only.includes(part);

const firstLoad = runs('bundle') ? await benchBundle() : undefined;
const pipeline = runs('api') ? await benchApi() : undefined;
const reads = runs('reads') ? await benchAffiliations() : undefined;
const grid = runs('grid') ? await benchGrid() : undefined;
const users = runs('users') ? await benchUsers() : undefined;
const usersPaint = runs('users') ? await benchUsersPaint() : undefined;
if (runs('audit')) await benchAudit();
const coldLoads = runs('cold') ? await benchColdLoad() : undefined;
const lighthouses = runs('lighthouse') ? await benchLighthouse() : undefined;
if (only?.includes('large')) await benchLarge();

interface Budget {
  budget: string;
  goal: string;
  figure: string;
  ratio: string;
  holds: string;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
const yes = (holds: boolean) => (holds ? 'yes' : 'NO');

function firstLoadRows({ bytes }: FirstLoad): Budget[] {
  const goal = `≤ ${FIRST_LOAD_BUDGET_KB} KB (a CI test too)`;
  return [{ budget: 'first visit JavaScript with its words, gzip -9', goal, figure: kb(bytes), ratio: `${(bytes / FIRST_LOAD_BUDGET).toFixed(2)}× the goal`, holds: yes(bytes <= FIRST_LOAD_BUDGET) }];
}

function pipelineRows({ valid, invalid }: PipelineResult): Budget[] {
  const row = (what: string, share: number) => ({ budget: `API pipeline: ${what}`, goal: '(none)', figure: `${percent(share)} of bare Fastify`, ratio: share.toFixed(2), holds: '—' });
  return [row('POST registration 201 (insert)', valid), row('POST registration 422 (no database)', invalid)];
}

function readRows(results: ReadResult[]): Budget[] {
  return results.flatMap(({ route, throughput, tail, errors }) => [
    { budget: `${route}: req/s`, goal: `≥ ${Math.round(READ_THROUGHPUT * 100)} % of floor`, figure: percent(throughput), ratio: throughput.toFixed(2), holds: yes(throughput >= READ_THROUGHPUT && errors === 0) },
    { budget: `${route}: p99`, goal: '≤ 1.5× floor', figure: `${tail.toFixed(2)}×`, ratio: tail.toFixed(2), holds: yes(tail <= READ_TAIL) },
  ]);
}

function gridRows(results: GridResult[]): Budget[] {
  return results.map(({ rows, portal, floor }) => ({
    budget: `learner grid: paste ${rows} rows → validated, painted`,
    goal: `≤ ${GRID_TARGET}× bare`,
    figure: `${Math.round(portal)} ms (bare ${Math.round(floor)} ms)`,
    ratio: (portal / floor).toFixed(2),
    holds: yes(portal / floor <= GRID_TARGET),
  }));
}

function usersRows(results: UsersResult[]): Budget[] {
  const learnersLabel = (Number(process.env.BENCH_USERS ?? 10_000)).toLocaleString('en');
  return results.map(({ call, medianMs, budgetMs }) => ({
    budget: `Users, ${learnersLabel} learners: ${call} (median of 3)`,
    goal: `≤ ${budgetMs} ms`,
    figure: `${medianMs} ms`,
    ratio: (medianMs / budgetMs).toFixed(2),
    holds: yes(medianMs <= budgetMs),
  }));
}

function usersPaintRows({ afterAnswerMs, fromNavigationMs, rowsInDom }: UsersPaintResult): Budget[] {
  return [
    {
      budget: '/users, 10,000 learners: list painted after the answer (chromium, median of 3)',
      goal: `≤ ${USERS_PAINT_BUDGET_MS} ms`,
      figure: `${afterAnswerMs} ms (${fromNavigationMs} ms from navigation)`,
      ratio: (afterAnswerMs / USERS_PAINT_BUDGET_MS).toFixed(2),
      holds: yes(afterAnswerMs <= USERS_PAINT_BUDGET_MS),
    },
    { budget: '/users, 10,000 learners: rows in the DOM', goal: `≤ ${USERS_ROWS_BUDGET}`, figure: String(rowsInDom), ratio: (rowsInDom / USERS_ROWS_BUDGET).toFixed(2), holds: yes(rowsInDom <= USERS_ROWS_BUDGET) },
  ];
}

function coldLoadRows(rows: ColdLoadRow[]): Budget[] {
  return rows.flatMap(({ page, profile, contentMs, firstDataCallMs, jsRequests }) => {
    const goalMs = PROFILES[profile].goalMs;
    const content = { budget: `cold ${page}, ${profile}: content (median)`, goal: `≤ ${goalMs} ms`, figure: `${contentMs} ms`, ratio: (contentMs / goalMs).toFixed(2), holds: yes(contentMs <= goalMs) };
    if (profile !== 'fast 4G') return [content];
    const call = firstDataCallMs ?? Infinity;
    return [
      content,
      { budget: `cold ${page}, fast 4G: first data call`, goal: `≤ ${FIRST_DATA_CALL_GOAL_MS} ms`, figure: `${firstDataCallMs ?? '—'} ms`, ratio: (call / FIRST_DATA_CALL_GOAL_MS).toFixed(2), holds: yes(call <= FIRST_DATA_CALL_GOAL_MS) },
      { budget: `cold ${page}: JS requests`, goal: `≤ ${JS_REQUESTS_GOAL}`, figure: String(jsRequests), ratio: (jsRequests / JS_REQUESTS_GOAL).toFixed(2), holds: yes(jsRequests <= JS_REQUESTS_GOAL) },
    ];
  });
}

const budgets = [
  ...(firstLoad ? firstLoadRows(firstLoad) : []),
  ...(pipeline ? pipelineRows(pipeline) : []),
  ...(reads ? readRows(reads) : []),
  ...(grid ? gridRows(grid) : []),
  ...(users ? usersRows(users) : []),
  ...(usersPaint ? usersPaintRows(usersPaint) : []),
  ...(coldLoads ? coldLoadRows(coldLoads) : []),
  ...(lighthouses ? lighthouseGoals(lighthouses) : []),
];
console.log('\nBudgets (issue 20)');
console.table(budgets);
