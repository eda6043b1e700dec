/**
 * The dashboard's building blocks, one import for the pages: data loading and actions, layout,
 * labelled form controls, tables and badges, secrets shown once and confirmation dialogs. Every
 * control is reachable by keyboard.
 */
export * from './data';
export * from './dialogs';
export * from './forms';
export * from './layout';
export * from './table';
