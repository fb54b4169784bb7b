package dev.rmtemu.emulator.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An immutable, ordered key → string map with unique keys, as written in the
 * topology file. Used for link impairment specs (kept opaque here and handed to
 * the traces module's impairment parser) and program parameters. Equality is
 * order-sensitive, so two models are equal only if their files list the same
 * entries in the same order; iteration order is always the file's order.
 */
public record KeyValues(List<Entry> entries) {

    /** One key and its textual value. */
    public record Entry(String key, String value) {
        public Entry {
            if (key == null || value == null) {
                throw new IllegalArgumentException("null key or value");
            }
        }

        @Override
        public String toString() {
            return key + "=" + value;
        }
    }

    public static final KeyValues EMPTY = new KeyValues(List.of());

    public KeyValues {
        entries = List.copyOf(entries);
        for (int i = 0; i < entries.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (entries.get(i).key().equals(entries.get(j).key())) {
                    throw new IllegalArgumentException("duplicate key '" + entries.get(i).key() + "'");
                }
            }
        }
    }

    /** Builds from a map, in the map's iteration order (pass a LinkedHashMap or TreeMap). */
    public static KeyValues of(Map<String, String> ordered) {
        List<Entry> list = new ArrayList<>(ordered.size());
        for (Map.Entry<String, String> e : ordered.entrySet()) {
            list.add(new Entry(e.getKey(), e.getValue()));
        }
        return new KeyValues(list);
    }

    /** Value for a key, or null. */
    public String get(String key) {
        for (Entry e : entries) {
            if (e.key().equals(key)) {
                return e.value();
            }
        }
        return null;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    public int size() {
        return entries.size();
    }

    /** An unmodifiable insertion-ordered view as a map. */
    public Map<String, String> asMap() {
        Map<String, String> m = new LinkedHashMap<>();
        for (Entry e : entries) {
            m.put(e.key(), e.value());
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String toString() {
        return entries.toString();
    }
}
