/**
 * The breadcrumb (SPEC 2.2) with an item linking to a screen whose values come from the loaded data (Application
 * Details: Home › the group's Service Details › subscription detail): no link until the data is there.
 */
import 'global-jsdom/register';
import { expect } from 'chai';
import { cleanup, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { combineReducers, legacy_createStore as createStore } from 'redux';
import { Breadcrumb } from '../../../src/client/app/frame/Breadcrumb.js';
import { screenById } from '../../../src/client/engine/screen/navigation.js';
import { useScreenLabel, useScreenLinkPath } from '../../../src/client/engine/screen/screenLabels.js';
import { screenDataLoaded, screenDataReducer, screenEntered } from '../../../src/client/engine/screen/screenDataState.js';
import { englishI18n } from '../support/i18n.js';

function Crumbs() {
  const screen = screenById('subscription-details');
  return <Breadcrumb items={screen.breadcrumb} label={useScreenLabel(screen)} linkPath={useScreenLinkPath(screen, { requestCode: 'A000000101' })} />;
}

describe('Breadcrumb: an item linking to a screen with values of the loaded data', () => {
  afterEach(cleanup);

  it("Application Details: Home › the group's Service Details › Subscription detail, the group's link once the application is loaded", async () => {
    const i18n = await englishI18n();
    const store = createStore(combineReducers({ screenData: screenDataReducer }));
    store.dispatch(screenEntered({ screenId: 'subscription-details', context: {} }));
    const show = () =>
      render(
        <Provider store={store}>
          <I18nextProvider i18n={i18n}>
            <MemoryRouter>
              <Crumbs />
            </MemoryRouter>
          </I18nextProvider>
        </Provider>,
      );
    let view = show();
    expect(view.getAllByRole('link').map((link) => link.textContent)).to.deep.equal(['Home']);
    cleanup();
    store.dispatch(
      screenDataLoaded({
        screenId: 'subscription-details',
        status: 'loaded',
        values: { subscription: { corporateSubscription: { services: [{ serviceGroup: { id: 2, name: 'Online MBA 2.0' } }] } } },
      }),
    );
    view = show();
    expect(view.getByRole('link', { name: 'Online MBA 2.0' }).getAttribute('href')).to.equal('/services/2');
    expect(view.getByText('Subscription detail').getAttribute('aria-current')).to.equal('page');
  });
});
