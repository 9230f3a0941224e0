import { Text, View } from '@tarojs/components';
import { tapTarget } from '../utils/a11y';
import type { Tappable } from './tappable';

/** One row of a pick-one list (a session, a saved attendee); the children are its second line. */
export default function Choice(props: Tappable & { on: boolean; title: string }) {
  return (
    <View
      className={`choice ${props.on ? 'choice--on' : ''}`}
      data-testid={props.testid}
      onClick={props.onClick}
      {...tapTarget({ pressed: props.on })}
    >
      <View className="choice__main">
        <Text className="choice__title">{props.title}</Text>
        <Text className="choice__sub">{props.children}</Text>
      </View>
      <View className="choice__mark" />
    </View>
  );
}
