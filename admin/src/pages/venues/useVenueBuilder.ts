import { useEffect, useMemo, useState } from 'react';
import { App, type FormInstance } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { LayoutPreview, SeatSpecInput } from '@showtix/shared-types';
import { errorText } from '../../api/client';
import { createVenue, getVenue, parseLayout, replaceLayout } from '../../api/venues';
import { colorBySection } from '../../seatmap/draw';
import type { PlotSeat } from '../../seatmap/geometry';
import { newBlock, toBlockSpec, type BlockForm } from './BlockEditor';
import { useGeneratedPreview } from './useGeneratedPreview';
import { coordinatesOf } from './CoordinateFields';

type Preview = LayoutPreview;
export type Imported = Preview & { fileName: string };

export interface VenueForm {
  name: string;
  city: string;
  address: string;
  latitude?: number | null;
  longitude?: number | null;
  blocks: BlockForm[];
  zones: { name: string; capacity: number }[];
}

export const INITIAL: VenueForm = {
  name: '',
  city: '',
  address: '',
  blocks: [newBlock(0), { ...newBlock(1, newBlock(0)) }],
  zones: [],
};

/** Seats of a preview as plot seats (the generator gives no ids yet: the label is the id). */
function plot(seats: SeatSpecInput[]): PlotSeat[] {
  return seats.map((s) => ({ ...s, id: `${s.section}|${s.row}|${s.number}` }));
}

/**
 * The venue builder's state: where the layout comes from (the generator or an imported file; when
 * editing, the current seats start as the imported layout), its preview, and saving it.
 */
export function useVenueBuilder(form: FormInstance<VenueForm>, venueId: string | undefined) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [source, setSource] = useState<'generator' | 'import'>('generator');
  const [imported, setImported] = useState<Imported | null>(null);
  const [saving, setSaving] = useState(false);

  const { generated, problem, stale, regenerate } = useGeneratedPreview(form);
  useCurrentLayout(form, venueId, setImported, setSource);

  const preview =
    source === 'generator' ? generated : (imported ?? { seats: [], duplicates: [], overlaps: 0 });
  const seats = useMemo(() => plot(preview.seats), [preview.seats]);
  const sections = useMemo(() => [...new Set(preview.seats.map((s) => s.section))].sort(), [preview.seats]);
  const colorOf = useMemo(() => colorBySection(sections), [sections]);

  const importFile = async (file: File) => {
    const text = await file.text();
    const format = file.name.toLowerCase().endsWith('.json') ? 'json' : 'csv';
    try {
      const r = await parseLayout({
        format,
        text,
      });
      setImported({ ...r, fileName: file.name });
      if (r.zones.length) form.setFieldValue('zones', r.zones);
      message.success(
        `已读取 ${r.seats.length} 个座位${r.zones.length ? `、${r.zones.length} 个站席区` : ''}`,
      );
    } catch (e) {
      message.error(errorText(e, '文件读取失败'));
    }
    return false;
  };

  const save = async (v: VenueForm) => {
    setSaving(true);
    try {
      const venue = await saveVenue(venueId, v, source === 'generator' ? undefined : (imported?.seats ?? []));
      message.success(`场馆「${venue.name}」已${venueId ? '更新' : '创建'}，共 ${venue.seatCount} 个座位`);
      navigate(`/venues/${venue.id}`);
    } catch (e) {
      message.error(errorText(e, '保存失败'));
    } finally {
      setSaving(false);
    }
  };

  return {
    source,
    setSource,
    imported,
    saving,
    generated,
    problem,
    stale,
    regenerate,
    preview,
    seats,
    sections,
    colorOf,
    importFile,
    save,
  };
}

/** Editing: the current seats start as the "imported" layout; the generator can replace them. */
function useCurrentLayout(
  form: FormInstance<VenueForm>,
  venueId: string | undefined,
  setImported: (i: Imported) => void,
  setSource: (s: 'import') => void,
) {
  useEffect(() => {
    if (!venueId) return;
    void getVenue(venueId).then((v) => {
      form.setFieldsValue({
        name: v.name,
        city: v.city,
        address: v.address,
        latitude: v.latitude,
        longitude: v.longitude,
        zones: v.zones.map(({ name, capacity }) => ({ name, capacity })),
      });
      setImported({
        seats: v.seats.map(({ section, row, number, x, y }) => ({ section, row, number, x, y })),
        duplicates: [],
        overlaps: 0,
        fileName: '当前座位图',
      });
      setSource('import');
    });
  }, [venueId, form, setImported, setSource]);
}

/** Creates the venue, or replaces its layout: from the generator's blocks, or the imported seats. */
function saveVenue(venueId: string | undefined, v: VenueForm, importedSeats: SeatSpecInput[] | undefined) {
  const layout = importedSeats ? { seats: importedSeats } : { blocks: (v.blocks ?? []).map(toBlockSpec) };
  return venueId
    ? replaceLayout(venueId, { zones: v.zones, ...layout })
    : createVenue({
        name: v.name,
        city: v.city,
        address: v.address,
        ...coordinatesOf(v),
        zones: v.zones,
        ...layout,
      });
}
