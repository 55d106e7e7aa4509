import { useRef, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import type { UploadBlock } from '../../../../common/screens.js';
import { isPending, uploadedShare, type OperationsRootState } from '../../../state/operations.js';
import { actionCancelled, actionOperation } from '../dialogState.js';
import { linkClassName } from '../LinkView.js';
import { useRunAction, type BlockProps } from './shared.js';

/** A button choosing a file; the choice runs the block's action with the file as `$file`, then the input is emptied. */
export function UploadView({ block, screen, context }: BlockProps<UploadBlock>): ReactElement {
  const { t } = useTranslation();
  const run = useRunAction(screen);
  const input = useRef<HTMLInputElement>(null);
  const operation = actionOperation(screen.id, block.action);
  const pending = useSelector((state: OperationsRootState) => isPending(operation)(state));
  return (
    <div className="upload">
      <button type="button" className={linkClassName(block.style ?? 'primary')} disabled={pending} onClick={() => input.current?.click()}>
        {t(block.label)}
      </button>
      <input
        ref={input}
        type="file"
        className="upload__input"
        hidden
        aria-label={t(block.label)}
        accept={block.accept}
        disabled={pending}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = ''; // the same file chosen again is a new choice
          if (file) run(block.action, { ...context, file }); // nothing is sent without a file (SPEC §5)
        }}
      />
      {pending && <UploadProgressView screenId={screen.id} actionId={block.action} />}
    </div>
  );
}

/** While the file is sent: its percentage, then 'checking' until the answer, and a Cancel that aborts the call. */
function UploadProgressView({ screenId, actionId }: { screenId: string; actionId: string }): ReactElement {
  const { t } = useTranslation();
  const dispatch = useDispatch();
  const uploaded = useSelector((state: OperationsRootState) => uploadedShare(actionOperation(screenId, actionId))(state)) ?? 0;
  const percent = Math.floor(uploaded * 100);
  return (
    <div className="upload__progress">
      <progress max={100} value={percent} aria-hidden="true" />
      <span role="status">{uploaded < 1 ? t('common.upload.sending', { percent }) : t('common.upload.checking')}</span>
      <button type="button" className={linkClassName('link')} onClick={() => dispatch(actionCancelled({ screenId, actionId }))}>
        {t('common.upload.cancel')}
      </button>
    </div>
  );
}
