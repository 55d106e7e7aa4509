/** The page frame of SPEC 2.2 around every screen. */
import { useEffect, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { Outlet, useMatches } from 'react-router-dom';
import type { ScreenDefinition } from '../../../common/screens.js';
import { STEP_PARAM } from '../../engine/routes.js';
import { Loader } from '../../engine/Loader.js';
import { Reveal } from '../../engine/Reveal.js';
import { titleOf, useScreenLabel, useScreenLinkPath } from '../../engine/screen/screenLabels.js';
import { frameShown } from '../firstPaint.js';
import { Breadcrumb } from './Breadcrumb.js';
import { FlashMessages } from './FlashMessages.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';
import { LocaleParam } from './LocaleParam.js';
import { Notices } from './Notices.js';
import { ScrollManager } from './ScrollManager.js';
import { SupportChat } from './SupportChat.js';

export interface ScreenHandle {
  screen: ScreenDefinition;
}

function useCurrentScreen(): { screen?: ScreenDefinition; params: Record<string, string | undefined>; step?: string } {
  const matches = useMatches();
  const match = [...matches].reverse().find((candidate) => (candidate.handle as ScreenHandle | undefined)?.screen);
  const screen = (match?.handle as ScreenHandle | undefined)?.screen;
  return { screen, params: match?.params ?? {}, step: match?.params[STEP_PARAM] ?? screen?.form?.steps?.[0] };
}

/**
 * The screen's breadcrumb, title and lead, and the document's title: the frame's only parts that read the screen's
 * data (a label may name a record), so an answer arriving re-renders them, not the header, menus and footer.
 */
function ScreenHeading({ screen, params, step }: { screen: ScreenDefinition; params: Record<string, string | undefined>; step?: string }): ReactElement {
  const { t } = useTranslation();
  const label = useScreenLabel(screen);
  const linkPath = useScreenLinkPath(screen, params);
  const title = label(titleOf(screen, step));

  useEffect(() => {
    document.title = title ? `${title} | ${t('common.appName')}` : t('common.appName');
  }, [title, t]);

  return (
    <>
      <Breadcrumb items={screen.breadcrumb} label={label} linkPath={linkPath} />
      {screen.title && <h1 className="content__title">{title}</h1>}
      {screen.lead && <p className="content__lead">{t(screen.lead)}</p>}
    </>
  );
}

export function Frame(): ReactElement {
  const { screen, params, step } = useCurrentScreen();
  const dispatch = useDispatch();
  useEffect(() => void dispatch(frameShown()), [dispatch]);
  return (
    <div className="page">
      <LocaleParam />
      <ScrollManager />
      <Header />
      <Notices />
      <FlashMessages />
      <main className={`content content--${screen?.width ?? 'normal'}`}>
        {screen && <ScreenHeading screen={screen} params={params} step={step} />}
        <Reveal fallback={<Loader />}>
          <Outlet />
        </Reveal>
      </main>
      <Footer />
      <SupportChat />
    </div>
  );
}
