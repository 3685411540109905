// The app's shell: which page the server handed us (a store session, a tracking page, an ended
// session, a bad link), and for a store the header with the balance, the three screens and the
// conversation with the framing page (host.ts).
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ResultOf } from 'gql.tada';
import { onSessionEnded, run, setToken as sendToken, takePreloaded } from '../api';
import type { Boot } from '../boot';
import { Start } from '../documents';
import { connectHost } from '../host';
import { formatNumber, t } from '../i18n';
import { useHash } from './hooks';
import { Prizes } from './Prizes';
import { ProductPage } from './ProductPage';
import { Rewards } from './Rewards';
import { Shop } from './Shop';
import { Track } from './Track';
import { Failure, Loading, Message } from './ui';
import type { ApiError } from '../api';

export function App(props: { boot: Boot }) {
  const boot = props.boot;
  if (boot.page === 'invalid') return <Message title={t('invalid')} text={t('invalidText')} />;
  if (boot.page === 'track')
    return <Track tracking={boot.tracking} establishment={boot.name} logoUrl={boot.logoUrl} />;
  return <Store boot={boot} />;
}

type StoreBoot = Extract<Boot, { page: 'store' } | { page: 'ended' }>;
type Started = ResultOf<typeof Start>['marketplace'];

function Store(props: { boot: StoreBoot }) {
  const boot = props.boot;
  const [token, setToken] = useState(() => {
    const first = boot.page === 'store' ? boot.token : '';
    sendToken(first);
    return first;
  });
  const [ended, setEnded] = useState(boot.page === 'ended');
  onSessionEnded(() => setEnded(true));
  // The page came with it (the server ran it): the first render shows the shop at once.
  const [start, setStart] = useState<Started | null>(
    () => takePreloaded(Start, {})?.marketplace ?? null,
  );
  const [balance, setBalance] = useState(start?.player.balance ?? 0);
  const [error, setError] = useState<ApiError | null>(null);
  const hash = useHash();
  const host = useMemo(
    () =>
      connectHost(boot.frameOrigins, (fresh) => {
        // The address too, so a reload opens the new session, not the ended one.
        const url = new URL(window.location.href);
        url.searchParams.set('session', fresh);
        window.history.replaceState(null, '', url);
        sendToken(fresh);
        setToken(fresh);
        setEnded(false);
      }),
    [boot.frameOrigins],
  );

  useEffect(() => {
    if (ended) host.post({ type: 'rewards:session-ended' });
  }, [ended, host]);

  const preloaded = useRef(start !== null);
  useEffect(() => {
    if (!token || ended) return;
    // Preloaded: nothing to ask until the session changes (a new one from the host page).
    if (preloaded.current) return void (preloaded.current = false);
    run(Start, {}).then(
      (d) => {
        setStart(d.marketplace);
        setBalance(d.marketplace.player.balance);
      },
      (e: ApiError) => setError(e),
    );
  }, [token, ended]);

  const coinName = start?.establishment.coinName ?? boot.coinName;
  useEffect(() => {
    if (start) host.post({ type: 'rewards:balance', balance, coinName });
  }, [balance, start, coinName, host]);

  if (ended)
    return (
      <Message title={t('sessionEnded')} text={t('sessionEndedText')}>
        <button
          type="button"
          class="primary"
          onClick={() => host.post({ type: 'rewards:session-ended' })}
        >
          {t('retry')}
        </button>
      </Message>
    );

  const route = hash.slice(2).split('/');
  const screen = route[0] === 'product' || route[0] === 'shop' ? 'shop' : route[0];
  const tab = (href: string, label: string, name: string) => (
    <a href={href} aria-current={screen === name ? 'page' : undefined}>
      {label}
    </a>
  );

  return (
    <>
      <header class="bar">
        {boot.logoUrl && <img src={boot.logoUrl} alt="" class="logo" />}
        <span class="brand">{boot.name}</span>
        <p
          class="balance"
          aria-live="polite"
          data-testid="balance"
          data-balance={start ? balance : ''}
        >
          <span class="visually-hidden">{t('balance')}: </span>
          {start ? (
            <>
              <strong>{formatNumber(balance)}</strong> {coinName}
            </>
          ) : (
            '…'
          )}
        </p>
      </header>
      <nav class="tabs" aria-label={t('screens')}>
        {tab('#/shop', t('shop'), 'shop')}
        {tab('#/rewards', t('rewards'), 'rewards')}
        {tab('#/prizes', t('myPrizes'), 'prizes')}
      </nav>
      <main class="page">
        <Failure error={error} />
        {!start ? (
          <Loading />
        ) : route[0] === 'product' && route[1] ? (
          <ProductPage id={route[1]} coinName={coinName} balance={balance} onBalance={setBalance} />
        ) : screen === 'rewards' ? (
          <Rewards coinName={coinName} onBalance={setBalance} />
        ) : screen === 'prizes' ? (
          <Prizes coinName={coinName} onBalance={setBalance} />
        ) : (
          <>
            <p class="hello">{t('hello', { name: start.player.firstName })}</p>
            <Shop coinName={coinName} categories={start.store.categories} balance={balance} />
          </>
        )}
      </main>
    </>
  );
}
