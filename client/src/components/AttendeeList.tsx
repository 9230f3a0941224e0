import type { Dispatch, SetStateAction } from 'react';
import type { AttendeeErrors, AttendeeInput } from '../services/attendees';
import AttendeeForm from './AttendeeForm';
import SavedChooser from './SavedChooser';

/**
 * The attendees of a real-name request, one form per ticket, with 常用观演人 to fill them from:
 * what 确认订单 and 候补 both ask for. The lists live in the page (it validates and sends them).
 */
export default function AttendeeList(props: {
  attendees: AttendeeInput[];
  setAttendees: Dispatch<SetStateAction<AttendeeInput[]>>;
  errors: AttendeeErrors[];
  setErrors: Dispatch<SetStateAction<AttendeeErrors[]>>;
  /** What each form is for (a seat, a zone, 第 1 张). */
  labels: string[];
}) {
  const { attendees, setAttendees, errors, setErrors, labels } = props;
  return (
    <>
      <SavedChooser
        attendees={attendees}
        onChange={(list) => {
          setAttendees(list);
          setErrors([]);
        }}
      />
      {attendees.map((a, i) => (
        <AttendeeForm
          key={i}
          index={i}
          seatLabel={labels[i] ?? ''}
          value={a}
          errors={errors[i] ?? {}}
          onChange={(patch) => {
            // Functional updates: inputs can fire faster than renders (autofill, IMEs).
            setAttendees((list) => list.map((x, j) => (j === i ? { ...x, ...patch } : x)));
            // An edited attendee loses its complaints at once; the others keep theirs until the next submit.
            setErrors((errs) => errs.map((e, j) => (j === i ? {} : e)));
          }}
        />
      ))}
    </>
  );
}
