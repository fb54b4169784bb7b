package dev.rmtemu.model.target;

/** {@code count} PHV containers of {@code widthBits} bits each (8, 16 or 32 on Tofino). */
public record PhvContainerGroup(int widthBits, int count) {
    public PhvContainerGroup {
        if (widthBits <= 0 || widthBits > 64 || count < 0) {
            throw new IllegalArgumentException("bad PHV container group " + count + " x " + widthBits + " b");
        }
    }
}
