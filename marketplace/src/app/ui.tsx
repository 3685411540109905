// Pieces the screens share: a modal dialog (the native <dialog>: focus kept inside, Escape
// closes, the page behind inert), an error line, the coin amount, a status badge.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ApiError } from '../api';
import { formatNumber, t } from '../i18n';

export function Dialog(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby="dialog-title" onClose={props.onClose} class="dialog">
      <div class="dialog-head">
        <h2 id="dialog-title">{props.title}</h2>
        <button type="button" class="icon" aria-label={t('close')} onClick={props.onClose}>
          ×
        </button>
      </div>
      {props.open && props.children}
    </dialog>
  );
}

export function Failure(props: { error: ApiError | null }) {
  if (!props.error) return null;
  return (
    <p class="failure" role="alert">
      {t('error', { message: props.error.message })}
    </p>
  );
}

export const Coins = (props: { n: number; coinName: string }) => (
  <span class="coins">
    {formatNumber(props.n)} {props.coinName}
  </span>
);

export const Status = (props: { status: string }) => (
  <span class={`badge status-${props.status}`}>
    {t(`status_${props.status}` as 'status_pending')}
  </span>
);

export const Loading = () => (
  <p class="muted" aria-busy="true">
    {t('loading')}
  </p>
);

export function Message(props: { title: string; text: string; children?: ComponentChildren }) {
  return (
    <main class="message">
      <h1>{props.title}</h1>
      <p>{props.text}</p>
      {props.children}
    </main>
  );
}
