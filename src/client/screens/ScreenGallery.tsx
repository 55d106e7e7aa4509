/**
 * /dev/screens (issue 8 §1): the screen gallery for product staff, outside production only (the server answers 404
 * in production). It lists every screen definition of screens/ and shows every form of schemas/ in Japanese and in
 * English — each language through an i18next instance of its own in an I18nextProvider — twice: empty and with wrong
 * sample values, validated from the first render so that every field's messages show. The forms are the engine's own
 * SchemaForm; submitting one here sends nothing. Block kinds whose look the configuration does not show (a chart) are
 * rendered by the engine's own block renderer with sample data, in both languages too.
 */
import { lazy, Suspense, useEffect, useMemo, useState, type ReactElement } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import type { i18n } from 'i18next';
import type { UiSchema } from '@rjsf/utils';
import formNames from '../../../build/generated/forms.json';
import screenList from '../../../build/generated/screens.json';
import { LANGUAGES, type Language } from '../../common/languages.js';
import type { FormDefinition, ScreenDefinition } from '../../common/screens.js';
import { importScreenView } from '../engine/screen/screenViewChunk.js';
import { useFormModule } from '../engine/forms/formModule.js';
import { SchemaForm, type FormData } from '../engine/forms/SchemaForm.js';
import { createI18n } from '../engine/i18n.js';
import { Loader } from '../engine/Loader.js';
import type { ScreenContext } from '../engine/screen/values.js';
import { BLOCK_SAMPLE_DATA, BLOCK_SAMPLES, screenSummary, wrongSample } from './galleryValues.js';

const screens = screenList as ScreenDefinition[];

/** The engine's block renderer, from the chunk of the block engine (no chunk of its own). */
const Blocks = lazy(() => importScreenView().then((module) => ({ default: module.Blocks })));

/** The screen the sample blocks belong to (they run no action). */
const SAMPLE_SCREEN: ScreenDefinition = { id: 'gallery-blocks', path: '/dev/screens', access: 'unguarded', width: 'wide', title: 'gallery.blocks.heading', breadcrumb: [] };

const SUMMARY_LABELS: Record<string, string> = {
  component: 'gallery.summary.component',
  form: 'gallery.summary.form',
  blocks: 'gallery.summary.blocks',
  data: 'gallery.summary.data',
  actions: 'gallery.summary.actions',
  redirect: 'gallery.summary.redirect',
  width: 'gallery.summary.width',
  flag: 'gallery.summary.flag',
  reauthentication: 'gallery.summary.reauthentication',
};

const LANGUAGE_LABELS: Record<Language, string> = { ja: 'gallery.language.ja', en: 'gallery.language.en' };

function ScreenTable(): ReactElement {
  const { t } = useTranslation();
  return (
    <table className="table gallery__screens">
      <caption className="table__caption">{t('gallery.screens.caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('gallery.screens.id')}</th>
          <th scope="col">{t('gallery.screens.path')}</th>
          <th scope="col">{t('gallery.screens.access')}</th>
          <th scope="col">{t('gallery.screens.title')}</th>
          <th scope="col">{t('gallery.screens.content')}</th>
        </tr>
      </thead>
      <tbody>
        {screens.map((screen) => (
          <tr key={screen.id} id={`screen-${screen.id}`}>
            <th scope="row">
              <code>{screen.id}</code>
            </th>
            <td>
              <code>{screen.path}</code>
            </td>
            <td>{screen.access}</td>
            <td>{screen.title.startsWith('$') ? <code>{screen.title}</code> : t(screen.title)}</td>
            <td>
              <dl className="gallery__summary">
                {screenSummary(screen).map(({ label, value }) => (
                  <div key={label} className="gallery__summary-row">
                    <dt>{t(SUMMARY_LABELS[label] ?? label)}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
              <details className="gallery__json">
                <summary>{t('gallery.screens.definition')}</summary>
                <pre>{JSON.stringify(screen, null, 2)}</pre>
              </details>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** One copy of a form: its own data, validated from the start, submitting nothing. */
function GalleryForm(props: { schemaName: string; form: FormDefinition | undefined; idPrefix: string; initialData: FormData }): ReactElement {
  const [formData, setFormData] = useState<FormData>(props.initialData);
  return (
    <SchemaForm
      schemaName={props.schemaName}
      uiSchema={props.form?.uiSchema as UiSchema | undefined}
      formData={formData}
      submitting={false}
      submitLabel={props.form?.submit.label ?? 'common.next'}
      idPrefix={props.idPrefix}
      validateAtOnce
      onChange={setFormData}
      onSubmit={() => undefined}
    />
  );
}

/** A form in one language: empty, then with wrong sample values. */
function FormInLanguage({ schemaName, form, language }: { schemaName: string; form: FormDefinition | undefined; language: Language }): ReactElement {
  const { t } = useTranslation();
  const module = useFormModule(schemaName);
  const sample = useMemo(() => (module ? wrongSample(module.schema, form?.uiSchema as UiSchema | undefined) : undefined), [module, form]);
  if (!sample) return <Loader />;
  return (
    <>
      <h5 className="gallery__variant">{t('gallery.forms.empty')}</h5>
      <GalleryForm schemaName={schemaName} form={form} idPrefix={`${schemaName}-${language}-empty`} initialData={{}} />
      <h5 className="gallery__variant">{t('gallery.forms.wrong')}</h5>
      <GalleryForm schemaName={schemaName} form={form} idPrefix={`${schemaName}-${language}-wrong`} initialData={sample} />
    </>
  );
}

function FormEntry({ name, instances }: { name: string; instances: Record<Language, i18n> }): ReactElement {
  const { t } = useTranslation();
  const users = screens.filter((screen) => screen.form?.schema === name);
  const form = users[0]?.form;
  const module = useFormModule(name);
  return (
    <section className="gallery__form" aria-labelledby={`form-${name}`}>
      <h3 id={`form-${name}`}>
        <code>schemas/{name}.json</code>
      </h3>
      <p>{users.length > 0 ? t('gallery.forms.usedBy', { screens: users.map((screen) => screen.id).join(', ') }) : t('gallery.forms.unused')}</p>
      {module && (
        <details className="gallery__json">
          <summary>{t('gallery.forms.schema')}</summary>
          <pre>{JSON.stringify(module.schema, null, 2)}</pre>
        </details>
      )}
      <div className="gallery__languages">
        {LANGUAGES.map((language) => (
          <I18nextProvider key={language} i18n={instances[language]}>
            <section className="gallery__language" lang={language} aria-label={`${name} ${t(LANGUAGE_LABELS[language])}`}>
              <h4 className="gallery__language-title">{t(LANGUAGE_LABELS[language])}</h4>
              <FormInLanguage schemaName={name} form={form} language={language} />
            </section>
          </I18nextProvider>
        ))}
      </div>
    </section>
  );
}

/** A block kind's variants in one language, over the sample data. */
function BlockSampleInLanguage({ variants, language }: { variants: (typeof BLOCK_SAMPLES)[number]['variants']; language: Language }): ReactElement {
  const { t } = useTranslation();
  const context: ScreenContext = { params: {}, query: {}, state: {}, data: { sample: BLOCK_SAMPLE_DATA }, role: 'manager', flags: {}, me: null, organization: null, language };
  return (
    <>
      {variants.map((variant) => (
        <div key={variant.label}>
          <h5 className="gallery__variant">{t(variant.label)}</h5>
          <Suspense fallback={<Loader />}>
            <Blocks blocks={[variant.block]} screen={SAMPLE_SCREEN} context={context} />
          </Suspense>
        </div>
      ))}
    </>
  );
}

function BlockSample({ sample, instances }: { sample: (typeof BLOCK_SAMPLES)[number]; instances: Record<Language, i18n> }): ReactElement {
  const { t } = useTranslation();
  return (
    <section className="gallery__block" aria-labelledby={`block-${sample.type}`}>
      <h3 id={`block-${sample.type}`}>
        <code>{sample.type}</code>
      </h3>
      <div className="gallery__languages">
        {LANGUAGES.map((language) => (
          <I18nextProvider key={language} i18n={instances[language]}>
            <section className="gallery__language" lang={language} aria-label={`${sample.type} ${t(LANGUAGE_LABELS[language])}`}>
              <h4 className="gallery__language-title">{t(LANGUAGE_LABELS[language])}</h4>
              <BlockSampleInLanguage variants={sample.variants} language={language} />
            </section>
          </I18nextProvider>
        ))}
      </div>
    </section>
  );
}

/** An i18next instance per language, apart from the page's own (whose language the header can switch). */
function useLanguageInstances(): Record<Language, i18n> | null {
  const [instances, setInstances] = useState<Record<Language, i18n> | null>(null);
  useEffect(() => {
    let active = true;
    Promise.all(LANGUAGES.map(async (language) => [language, await createI18n(language)] as const)).then(
      (entries) => active && setInstances(Object.fromEntries(entries) as Record<Language, i18n>),
    );
    return () => {
      active = false;
    };
  }, []);
  return instances;
}

export default function ScreenGallery(): ReactElement {
  const { t } = useTranslation();
  const instances = useLanguageInstances();
  return (
    <div className="gallery">
      <section aria-labelledby="gallery-screens">
        <h2 id="gallery-screens">{t('gallery.screens.heading')}</h2>
        <ScreenTable />
      </section>
      <section aria-labelledby="gallery-forms">
        <h2 id="gallery-forms">{t('gallery.forms.heading')}</h2>
        <p>{t('gallery.forms.lead')}</p>
        {instances ? (formNames as string[]).map((name) => <FormEntry key={name} name={name} instances={instances} />) : <Loader />}
      </section>
      <section aria-labelledby="gallery-blocks">
        <h2 id="gallery-blocks">{t('gallery.blocks.heading')}</h2>
        <p>{t('gallery.blocks.lead')}</p>
        {instances ? BLOCK_SAMPLES.map((sample) => <BlockSample key={sample.type} sample={sample} instances={instances} />) : <Loader />}
      </section>
    </div>
  );
}
