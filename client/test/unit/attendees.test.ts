import { normaliseAttendees, validateAttendees } from '../../src/services/attendees';

const ID = '11010519491231002X'; // a valid mainland ID (check character X)

describe('attendee validation with the shared schema', () => {
  it('accepts valid attendees, ID check character in any case', () => {
    expect(validateAttendees([{ name: '张三', idType: 'id_card', idNumber: ID.toLowerCase() }]).ok).toBe(
      true,
    );
    expect(validateAttendees([{ name: 'Tom Lee', idType: 'passport', idNumber: 'E12345678' }]).ok).toBe(true);
  });

  it('names what is wrong, field by field', () => {
    const r = validateAttendees([
      { name: ' ', idType: 'id_card', idNumber: '' },
      { name: '李四', idType: 'id_card', idNumber: '110105194912310021' },
      { name: '王五', idType: 'passport', idNumber: 'E1' },
    ]);
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      { name: '请填写观演人姓名', idNumber: '请填写证件号码' },
      { idNumber: '身份证号码有误，请核对' },
      { idNumber: '证件号码格式不正确' },
    ]);
  });

  it('sells one ticket per person on real-name sessions', () => {
    const r = validateAttendees([
      { name: '张三', idType: 'id_card', idNumber: ID },
      { name: '张三', idType: 'id_card', idNumber: ` ${ID.toLowerCase()} ` },
    ]);
    expect(r.errors[1]).toEqual({ idNumber: '同一证件只能购买一张票' });
  });

  it('sends trimmed names and upper-cased ID numbers', () => {
    expect(
      normaliseAttendees([{ name: ' 张三 ', idType: 'id_card', idNumber: ' 11010519491231002x ' }]),
    ).toEqual([{ name: '张三', idType: 'id_card', idNumber: ID }]);
  });
});
