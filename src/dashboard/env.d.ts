// Vite handles the stylesheet import in main.tsx.
declare module '*.css';
