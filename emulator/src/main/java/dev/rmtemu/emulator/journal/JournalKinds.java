package dev.rmtemu.emulator.journal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Names ↔ ids of the kinds of export message (e.g. {@code "lossradar.digest"},
 * {@code "wbmon.drops"}). Ids are dense and assigned in registration order, so the same
 * registrations give the same ids on every run. The registry is written once at the start
 * of the journal, so collectors decode by name, never by a hard-coded id.
 *
 * <p>Two ids are reserved for the journal itself: {@link #HEADER} (the registry message)
 * and {@link #END} (the end-of-run message).
 */
public final class JournalKinds {

    /** Kind of the journal's first message, which carries this registry. */
    public static final int HEADER = 0;
    /** Kind of the journal's last message, written when the run closes its journal. */
    public static final int END = 1;
    /** The first id handed to a registered kind. */
    public static final int FIRST_USER_KIND = 2;

    public static final String HEADER_NAME = "journal.header";
    public static final String END_NAME = "journal.end";

    /** Longest kind name, so the header stays small and lines stay readable. */
    public static final int MAX_NAME_LENGTH = 64;

    private final List<String> names = new ArrayList<>();
    /** Lookup only, never iterated into output. */
    private final Map<String, Integer> ids = new HashMap<>();

    public JournalKinds() {
        add(HEADER_NAME);
        add(END_NAME);
    }

    /**
     * Registers a kind and returns its id; registering a name again returns the same id.
     * Names are 1 to {@value #MAX_NAME_LENGTH} characters of {@code [a-z0-9._-]}.
     */
    public int register(String name) {
        Integer known = ids.get(name);
        if (known != null) {
            if (known < FIRST_USER_KIND) {
                throw new IllegalArgumentException("journal kind name '" + name + "' is reserved");
            }
            return known;
        }
        checkName(name);
        return add(name);
    }

    /** The id of a registered name, or -1. */
    public int id(String name) {
        Integer id = ids.get(name);
        return id == null ? -1 : id;
    }

    /** The name of an id (the stored string, no allocation), or null if unknown. */
    public String name(int id) {
        return id >= 0 && id < names.size() ? names.get(id) : null;
    }

    /** True for a registered, non-reserved kind id. */
    public boolean isUserKind(int id) {
        return id >= FIRST_USER_KIND && id < names.size();
    }

    /** Number of ids, reserved ones included; ids are {@code 0 .. size()-1}. */
    public int size() {
        return names.size();
    }

    /** All names in id order, reserved ones first. */
    public List<String> names() {
        return Collections.unmodifiableList(names);
    }

    /** An independent copy (a journal keeps its own, so later registrations cannot change it). */
    public JournalKinds copy() {
        JournalKinds c = new JournalKinds();
        for (int i = FIRST_USER_KIND; i < names.size(); i++) {
            c.add(names.get(i));
        }
        return c;
    }

    private int add(String name) {
        int id = names.size();
        names.add(name);
        ids.put(name, id);
        return id;
    }

    static void checkName(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("journal kind name must be 1.." + MAX_NAME_LENGTH
                    + " characters, got " + (name == null ? "null" : "'" + name + "'"));
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            if (!ok) {
                throw new IllegalArgumentException("journal kind name '" + name + "' has '" + c
                        + "'; use lower-case letters, digits, '.', '_' and '-'");
            }
        }
    }
}
