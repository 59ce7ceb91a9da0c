// The dashboard's entry: mounts the application in index.html's #app.
import { render } from 'preact';
import { App } from './app.js';
import { SessionProvider } from './session.js';
import { applyTheme, storedTheme } from './theme.js';
import './styles.css';

// Before the first render, so a remembered theme shows from the first paint.
applyTheme(storedTheme());

render(
  <SessionProvider>
    <App />
  </SessionProvider>,
  document.getElementById('app')!,
);
