// Light and dark themes: the system's choice unless the person picks one in the header, remembered in localStorage.
// The choice is an attribute on <html> (data-theme) that styles.css reads; the CSP allows no inline style.
import { useState } from 'preact/hooks';

export type ThemeChoice = 'system' | 'light' | 'dark';

const STORAGE_KEY = 'mail-sandbox.theme';

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    // Storage can be switched off; the system's choice then applies.
    return 'system';
  }
}

export function applyTheme(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // Not remembered, but applied for this page.
  }
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
