// Light and dark themes: the system's choice unless the person picks one in the header, remembered in localStorage.
// The choice is an attribute on <html> (data-theme) that styles.css reads; the CSP allows no inline style.
import { useState } from 'preact/hooks';
import { rememberChoice, storedChoice } from './remembered-choice.js';

export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'mail-sandbox.theme';

export function storedTheme(): ThemeChoice {
  // Nothing kept means the system's choice applies.
  return storedChoice<ThemeChoice>(STORAGE_KEY, ['light', 'dark'], 'system');
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  rememberChoice(STORAGE_KEY, choice === 'system' ? null : choice);
}

export function ThemeSelect() {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  const change = (event: Event) => {
    const next = (event.currentTarget as HTMLSelectElement).value as ThemeChoice;
    applyTheme(next);
    setChoice(next);
  };
  return (
    <div class="switcher">
      <label for="theme-select">Theme</label>
      <select id="theme-select" value={choice} onChange={change}>
        <option value="system">System</option>
        <option value="light">Light</option>
        <option value="dark">Dark</option>
      </select>
    </div>
  );
}
