import { Input, Text, View } from '@tarojs/components';

/** One text input in the app's field frame; `onInput` gets the value, not the event. */
export function TextField(props: {
  /** The words above the input, where the card's title does not say what it is. */
  label?: string;
  className?: string;
  type?: 'text' | 'number' | 'idcard';
  testid: string;
  placeholder: string;
  value: string;
  maxlength: number;
  onInput: (value: string) => void;
  onConfirm?: () => void;
}) {
  return (
    <View className="field">
      {props.label ? <Text className="field__label">{props.label}</Text> : null}
      <Input
        className={props.className ? `field__input ${props.className}` : 'field__input'}
        data-testid={props.testid}
        placeholder={props.placeholder}
        value={props.value}
        maxlength={props.maxlength}
        type={props.type}
        onInput={(e) => props.onInput(e.detail.value)}
        onConfirm={props.onConfirm}
      />
    </View>
  );
}

/** A form's complaint on a line of its own, or nothing. */
export function FieldHint({ text }: { text?: string }) {
  return text ? <Text className="field__error field__error--block">{text}</Text> : null;
}
