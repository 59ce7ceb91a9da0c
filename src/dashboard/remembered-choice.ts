// A choice among a few values that the next page and the next visit start from (the preview's width and colour
// scheme), kept in localStorage; where storage is switched off it lasts as long as the component.
import { useState } from 'preact/hooks';

function stored<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return allowed.find((candidate) => candidate === value) ?? fallback;
  } catch {
    return fallback;
  }
}

export function useRememberedChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): [T, (next: T) => void] {
  const [choice, setChoice] = useState<T>(() => stored(key, allowed, fallback));
  const choose = (next: T) => {
    setChoice(next);
    try {
      localStorage.setItem(key, next);
    } catch {
      // Not remembered, but chosen for this message.
    }
  };
  return [choice, choose];
}
