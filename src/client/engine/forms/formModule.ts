/** Loads a form's schema and precompiled validators (a chunk of its own per form) and builds its RJSF validator. */
import { startTransition, useEffect, useState } from 'react';
import createPrecompiledValidator from '@rjsf/validator-ajv8/lib/createPrecompiledValidator.js';
import type { RJSFSchema, ValidatorType } from '@rjsf/utils';
import { importFormChunk } from '../dataChunks.js';

export interface FormModule {
  schema: RJSFSchema;
  validator: ValidatorType;
}

const cache = new Map<string, Promise<FormModule>>();

export function loadFormModule(name: string): Promise<FormModule> {
  let module = cache.get(name);
  if (!module) {
    module = importFormChunk(name).then((imported) => {
      // a CommonJS module: its exports are the default export (webpack and Node alike)
      const { schema, ...validateFns } = imported.default ?? imported;
      return { schema, validator: createPrecompiledValidator(validateFns, schema) };
    });
    cache.set(name, module);
  }
  return module;
}

/**
 * The form's module once it has arrived. The form it lets render (RJSF's first render, 200 ms at 4× CPU on the wizard)
 * is a transition: React renders it in slices of a few milliseconds between which the page stays responsive, where an
 * ordinary update would have rendered it in one long task (issue 47: Lighthouse's blocking time).
 */
export function useFormModule(name: string): FormModule | null {
  const [module, setModule] = useState<FormModule | null>(null);
  useEffect(() => {
    let active = true;
    loadFormModule(name).then((loaded) => active && startTransition(() => setModule(loaded)));
    return () => {
      active = false;
    };
  }, [name]);
  return module;
}
