import nx from '@nx/eslint-plugin';

// Module boundaries in two dimensions (scope × type): a service may import the shared libs,
// never another service; libs never import services; tools are never imported by services.
export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: ['**/dist', '**/node_modules', 'libs/contracts/src/generated/**', '.local/**', 'coverage/**'],
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:tool'] },
            { sourceTag: 'type:emulator', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:emulator'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:tool', 'type:sdk'] },
            // The dashboard runs in the browser: it calls the API over HTTP and imports no project.
            { sourceTag: 'type:webapp', onlyDependOnLibsWithTags: [] },
            // The SDK ships to merchants on its own: it depends on no other project.
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: [] },
            // The orq CLI ships beside the SDK and talks to the API only through it.
            { sourceTag: 'type:cli', onlyDependOnLibsWithTags: ['type:sdk'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through the validated config object (libs/platform config), not process.env.',
        },
      ],
    },
  },
  {
    // The config loader is the one place allowed to read process.env; tools and tests set it up.
    files: ['libs/platform/src/config/**', 'libs/platform/src/testing/**', 'tools/**', '**/*.spec.ts', 'e2e/**', 'libs/sdk/examples/**', 'libs/cli/src/main.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // Contract tests run adapters against the emulators; only spec files may import them.
    files: ['services/**/*.spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:emulator'] },
            { sourceTag: 'type:emulator', onlyDependOnLibsWithTags: ['type:platform', 'type:contracts', 'type:emulator'] },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'tools/e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
];
