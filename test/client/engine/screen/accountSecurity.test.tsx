/**
 * Sign-in security (screens/account-security.json, issue 29): setting up an authenticator app shows its QR code at
 * the size an app reads (200 px, not the column's width) with the secret key beside it.
 */
import { expect } from 'chai';
import { cleanup, fireEvent, within } from '@testing-library/react';
import { jsonResponse } from '../../api/harness.js';
import { MEMBER, renderScreen } from './support.js';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const QR_CODE = 'data:image/svg+xml;base64,PHN2Zy8+';

describe('screens: Sign-in security (issue 29)', () => {
  afterEach(cleanup);

  it('an authenticator app’s set-up shows the QR code at 200 px in a column of its own width, the secret key in the column beside it', async () => {
    const { view } = await renderScreen('accountSecurity', {
      signedIn: MEMBER,
      routes: {
        'GET /api/v2/admins/me/two_step': () => jsonResponse(200, { passkeys: [], authenticator_app: false, recovery_codes_left: 0, two_step_required: false, enrolment_link_required: false }),
        'POST /api/v2/admins/me/authenticator_app': () => jsonResponse(201, { secret: SECRET, uri: `otpauth://totp/Portal?secret=${SECRET}`, qr_code: QR_CODE }),
      },
    });
    fireEvent.click(await view.findByRole('button', { name: 'Set up an authenticator app' }));
    const qrCode = await view.findByRole('img', { name: 'QR code of your authenticator app set-up' });
    expect([qrCode.getAttribute('src'), qrCode.getAttribute('width'), qrCode.getAttribute('height')]).to.deep.equal([QR_CODE, '200', '200']);
    // the width the stylesheet gives an image in a fit column (an image elsewhere is stretched to its column)
    expect(qrCode.style.getPropertyValue('--image-width')).to.equal('200px');
    // the fit column is as wide as the code (styles.css): the column beside it takes the rest, or goes under it
    const column = qrCode.closest('.columns__column')!;
    expect(column.classList.contains('columns__column--fit')).to.equal(true);
    const beside = [...column.parentElement!.children].filter((other) => other !== column);
    expect(beside).to.have.length(1);
    within(beside[0] as HTMLElement).getByText('Secret key');
    within(beside[0] as HTMLElement).getByText(SECRET);
  });
});
