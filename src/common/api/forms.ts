/**
 * The data of each form of schemas/ as a TypeScript type, computed from the schema file at build time
 * (scripts/generate.ts): a changed form schema changes the type of the route that receives it.
 */
export type { Forms } from '../../../build/generated/forms/types.js';
import type { Forms } from '../../../build/generated/forms/types.js';

export type FormName = keyof Forms;
