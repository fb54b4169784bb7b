package dev.rmtemu.emulator.topology;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Host addresses to values: every entry found, among colliding ones; everything else absent. */
class AddressTableTest {
    @Test
    void findsEveryEntryAndNothingElse() {
        Random rnd = new Random(3);
        int n = 300;
        int[] addresses = new int[n];
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            // half of them consecutive, as a fat tree's hosts are (10.p.i.x), the rest anywhere
            addresses[i] = i < n / 2 ? 0x0A000002 + i : rnd.nextInt();
            values[i] = i;
        }
        AddressTable t = new AddressTable(addresses, values);
        for (int i = 0; i < n; i++) {
            assertEquals(i, t.get(addresses[i]));
        }
        assertEquals(AddressTable.ABSENT, t.get(0x0A000001));
        assertEquals(AddressTable.ABSENT, t.get(0x0A000002 + n / 2));
        assertEquals(AddressTable.ABSENT, t.get(0));
        assertEquals(AddressTable.ABSENT, new AddressTable(new int[0], new int[0]).get(0));
    }

    @Test
    void aRepeatedAddressKeepsItsFirstValueAndNegativeValuesAreRefused() {
        AddressTable t = new AddressTable(new int[] {7, 7, 0}, new int[] {1, 2, 3});
        assertEquals(1, t.get(7));
        assertEquals(3, t.get(0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new AddressTable(new int[] {0x0A000001}, new int[] {-1}));
        assertEquals("value -1 for 10.0.0.1", e.getMessage());
    }
}
