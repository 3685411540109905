// The player marketplace: the rewards shop players open inside the casino's own site
// (docs/marketplace.md). The server hands the page what it needs first (boot.ts); everything
// else comes from GraphQL, by trusted document (api.ts).
import { render } from 'preact';
import './styles.css';
import { setPreloaded } from './api';
import { App } from './app/App';
import { readBoot } from './boot';
import { setLanguage } from './i18n';
import { applyStyle } from './style';

const boot = readBoot();
if (boot.page === 'store') setPreloaded(boot.preloaded);
setLanguage(boot.lang);
if ('style' in boot) applyStyle(boot.style);
render(<App boot={boot} />, document.getElementById('app')!);
