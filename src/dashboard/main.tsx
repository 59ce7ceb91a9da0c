// The dashboard's entry: mounts the application in index.html's #app.
import { render } from 'preact';
import { LocationProvider } from 'preact-iso';
import { App } from './app.js';
import { basePath } from './router.js';
import { SessionProvider } from './session.js';
import { applyTheme, storedTheme } from './theme.js';
import './styles.css';

// Before the first render, so a remembered theme shows from the first paint.
applyTheme(storedTheme());

// Only links below the base path navigate in the page; others are left to the browser.
render(
  <LocationProvider scope={basePath()}>
    <SessionProvider>
      <App />
    </SessionProvider>
  </LocationProvider>,
  document.getElementById('app')!,
);
