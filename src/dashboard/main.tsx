// The dashboard's entry: mounts the application in index.html's #app.
import { render } from 'preact';
import { App } from './app.js';
import { SessionProvider } from './session.js';
import './styles.css';

render(
  <SessionProvider>
    <App />
  </SessionProvider>,
  document.getElementById('app')!,
);
