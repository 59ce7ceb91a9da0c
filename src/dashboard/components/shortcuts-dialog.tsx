// The `?` dialog: every keyboard shortcut that works on the page now, as the pages registered them (keyboard.ts).
import { useActiveShortcuts } from '../keyboard.js';
import { Dialog } from './dialog.js';

const KEY_NAMES: Record<string, string> = { Escape: 'Esc', Delete: 'Delete', ' ': 'Space', ArrowDown: '↓', ArrowUp: '↑' };

export function ShortcutsDialog(props: { onClose: () => void }) {
  const shortcuts = useActiveShortcuts();
  return (
    <Dialog title="Keyboard shortcuts" onClose={props.onClose}>
      <dl class="shortcuts">
        {shortcuts.map((shortcut) => (
          <div key={shortcut.key}>
            <dt><kbd>{KEY_NAMES[shortcut.key] ?? shortcut.key}</kbd></dt>
            <dd>{shortcut.description}</dd>
          </div>
        ))}
      </dl>
      <button type="button" autoFocus onClick={props.onClose}>Close</button>
    </Dialog>
  );
}
