/** How the configuration is split for the first load (src/configuration/split.ts, issue 20). */
import { expect } from 'chai';
import path from 'node:path';
import type { ScreenDefinition } from '../../src/common/screens.js';
import { loadLocales, PROJECT_ROOT } from '../../src/configuration/load.js';
import { codeNamespaces, dynamicImports, fragmentsOf, keysOfCode, namespacesIn, namespacesOfCode, routeEntry, splitWords } from '../../src/configuration/split.js';

const SCREEN = {
  id: 'demo',
  path: '/demo/:step?',
  access: 'authenticated',
  width: 'normal',
  title: 'demo.title',
  breadcrumb: [{ label: 'common.home', screen: { screen: 'home' } }],
  query: { order: 'name' },
  data: {
    list: { path: 'organizations/:orgId/things', query: { order: '$query.order', lang: '$language' } },
    services: { path: 'services/:id', params: { id: '$params.id' } },
    later: { path: 'y', after: ['list'] },
    chosen: { path: 'z', when: { role: 'manager' } },
    fromData: { path: 'w', query: { id: '$data.list.id' } },
    sent: { method: 'POST', path: 'v' },
  },
  blocks: [{ type: 'text', text: 'demo.body', when: { role: 'manager' } }, { type: 'fragment', name: 'outer' }, { type: 'form' }],
  form: { schema: 'demo-form', steps: ['input', 'confirm'], submit: { method: 'POST', path: 'x' } },
} as unknown as ScreenDefinition;

describe('configuration/split: what the first load holds and what comes with a screen', () => {
  it("a route entry keeps what the router and the frame read, of the form only its steps, and what to preload", () => {
    const { preload, ...entry } = routeEntry(SCREEN);
    expect(entry).to.deep.equal({
      id: 'demo',
      path: '/demo/:step?',
      access: 'authenticated',
      width: 'normal',
      title: 'demo.title',
      breadcrumb: SCREEN.breadcrumb,
      query: { order: 'name' },
      form: { steps: ['input', 'confirm'] },
    });
    expect(preload?.form).to.equal('demo-form');
  });

  it("preloads a form the screen shows at once (alone, or among its blocks), not one further in (issue 47: a row's form on /users)", () => {
    const inRow = [{ type: 'table', rows: '$data.list', columns: [], expand: { when: 'chosen', blocks: [{ type: 'form' }] } }];
    expect(routeEntry({ ...SCREEN, blocks: undefined }).preload?.form).to.equal('demo-form');
    expect(routeEntry({ ...SCREEN, blocks: [{ type: 'text', text: 'demo.body' }, { type: 'form' }] } as ScreenDefinition).preload?.form).to.equal('demo-form');
    expect(routeEntry({ ...SCREEN, blocks: inRow } as unknown as ScreenDefinition).preload?.form).to.equal(undefined);
  });

  it('marks a screen that shows a browser date field at once, a date filter or the DateInput widget of the form it shows at once (issue 47), and no other', () => {
    const withDateInput = { ...SCREEN, form: { ...SCREEN.form!, uiSchema: { period: { startsOn: { 'ui:widget': 'DateInput' } } } } } as ScreenDefinition;
    expect(routeEntry(withDateInput).preload?.dateField).to.equal(true);
    expect(routeEntry({ ...SCREEN, blocks: [{ type: 'date', label: 'demo.from', query: 'from' }] } as unknown as ScreenDefinition).preload?.dateField).to.equal(true);
    expect(routeEntry(SCREEN).preload?.dateField).to.equal(undefined);
    const inRow = [{ type: 'table', rows: '$data.list', columns: [], expand: { when: 'chosen', blocks: [{ type: 'form' }] } }];
    expect(routeEntry({ ...withDateInput, blocks: inRow } as unknown as ScreenDefinition).preload?.dateField).to.equal(undefined);
  });

  it('marks a screen that shows a virtualised table, wherever it stands among its blocks (issue 47: its chunk is apart from the block engine), and no other', () => {
    const virtual = { type: 'table', rows: '$data.list', columns: [], virtual: { width: 960, height: 435, rowHeight: 40 } };
    expect(routeEntry({ ...SCREEN, blocks: [virtual] } as unknown as ScreenDefinition).preload?.virtualTable).to.equal(true);
    expect(routeEntry({ ...SCREEN, blocks: [{ type: 'panel', blocks: [virtual] }] } as unknown as ScreenDefinition).preload?.virtualTable).to.equal(true);
    expect(routeEntry({ ...SCREEN, blocks: [{ ...virtual, virtual: undefined }] } as unknown as ScreenDefinition).preload?.virtualTable).to.equal(undefined);
    expect(routeEntry(SCREEN).preload?.virtualTable).to.equal(undefined);
  });

  it('preloads the data calls that need only the route, the session and the language, with the language where the answer is translated (issue 26)', () => {
    expect(routeEntry(SCREEN).preload?.data).to.deep.equal({
      list: { path: 'organizations/:orgId/things', query: { order: '$query.order', lang: '$language' } },
      services: { path: 'services/:id', params: { id: '$params.id' }, query: { lang: '$language' } },
    });
    expect(routeEntry({ ...SCREEN, data: undefined, form: undefined }).preload).to.equal(undefined);
  });

  it('the fragments a screen shows, through the fragments they show', () => {
    const fragments = { outer: { blocks: [{ type: 'fragment', name: 'inner' }] }, inner: { blocks: [] }, unused: { blocks: [] } } as never;
    expect([...fragmentsOf(SCREEN, fragments)]).to.deep.equal(['outer', 'inner']);
  });

  it('the namespaces a value names: strings that start with a known locale file', () => {
    expect([...namespacesIn(SCREEN, new Set(['demo', 'common', 'other']))].sort()).to.deep.equal(['common', 'demo']);
  });

  it("the namespaces code names: a literal that starts a key, not a bare name (the IdP's 'signin' words stay out of the first load)", () => {
    const source = "t('common.home'); t(`errors.` + code); <section className=\"signin\">; report({ step: 'signin' }); // 'links.x'";
    expect(namespacesOfCode(source, new Set(['common', 'errors', 'signin', 'links']))).to.deep.equal(['common', 'errors']);
  });

  it("the frame's keys (issue 47): the first load's and the sign-in screens', not the forms' field errors nor the IdP's words", () => {
    const client = (file: string) => path.join(PROJECT_ROOT, 'src/client', file);
    const gallery = client('screens/ScreenGallery.tsx');
    const components = dynamicImports(client('screens/registry.ts'));
    expect(components).to.include.members([client('screens/SignIn.tsx'), gallery]);
    const code = codeNamespaces(client('app/main.tsx'), [client(''), path.join(PROJECT_ROOT, 'src/common')], new Set(Object.keys(loadLocales().ja)), components.filter((file) => file !== gallery), [gallery]);
    expect([...code.initial]).to.include.members(['errors', 'common', 'auth']).and.not.include('signin');
    expect([...code.keys]).to.include.members(['errors.sessionExpired', 'common.menu.label', 'auth.signin.retry', 'auth.signin.errors']);
    expect([...code.keys].filter((key) => key === 'errors' || key.startsWith('errors.field') || key.startsWith('common.conflict'))).to.deep.equal([]);
  });

  it("words: the first load's code namespaces whole, other namespaces with the screens naming them, frame keys in both, the rest not sent", () => {
    const tree = { common: { home: 'Home' }, demo: { title: 'Demo', body: 'Body' }, widget: { label: 'W' }, mail: { subject: 'S' } };
    const words = splitWords(tree, { demo: new Set(['demo', 'common']) }, { initial: new Set(['common']), lazy: new Set(['widget']), keys: new Set(['common']) }, ['demo.title']);
    expect(words.frame).to.deep.equal({ common: { home: 'Home' }, demo: { title: 'Demo' } });
    expect(words.engine).to.deep.equal({ widget: { label: 'W' } });
    expect(words.screens).to.deep.equal({ demo: { demo: { title: 'Demo', body: 'Body' } } });
  });

  it("words (issue 47): of the first load's namespaces the frame holds only what its code names, with plural forms; the rest comes with the engine's words", () => {
    const tree = { common: { home: 'Home', items_one: 'One', items_other: 'Many', conflict: { caption: 'C' }, languages: { ja: 'J', en: 'E' } }, widget: { label: 'W' } };
    const keys = new Set(keysOfCode("t('common.home'); t('common.items', { count }); t(`common.languages.${language}`)", new Set(['common'])));
    expect([...keys]).to.deep.equal(['common.home', 'common.items', 'common.languages']);
    const words = splitWords(tree, {}, { initial: new Set(['common']), lazy: new Set(['widget']), keys }, []);
    expect(words.frame).to.deep.equal({ common: { home: 'Home', items_one: 'One', items_other: 'Many', languages: { ja: 'J', en: 'E' } } });
    expect(words.engine).to.deep.equal({ common: { conflict: { caption: 'C' } }, widget: { label: 'W' } });
    expect(tree.common.conflict, 'the locale tree is left as it was').to.deep.equal({ caption: 'C' });
  });
});
