// The runtime half of ./aria.js: the reconciler serialises only the attributes it knows.
import { mergeInternalComponents } from '@tarojs/shared';
import { ARIA_COMPONENTS } from './aria-attrs';

mergeInternalComponents(ARIA_COMPONENTS);
