package dev.tickler.reminder;

import jakarta.persistence.AttributeConverter;
import jakarta.persistence.Converter;
import dev.tickler.db.WireNamed;
import dev.tickler.ledger.Channel;
import dev.tickler.ledger.ReminderState;

/** Stores the enums under their wire names, so SQL, API and logs all say "handed_off". */
final class WireNameConverters {

    private WireNameConverters() {
    }

    abstract static class WireNameConverter<E extends Enum<E> & WireNamed> implements AttributeConverter<E, String> {
        private final Class<E> type;

        WireNameConverter(Class<E> type) {
            this.type = type;
        }

        @Override
        public String convertToDatabaseColumn(E value) {
            return value == null ? null : value.wireName();
        }

        @Override
        public E convertToEntityAttribute(String name) {
            return name == null ? null : WireNamed.fromWireName(type, name);
        }
    }

    @Converter
    static class StateConverter extends WireNameConverter<ReminderState> {
        StateConverter() {
            super(ReminderState.class);
        }
    }

    @Converter
    static class ChannelConverter extends WireNameConverter<Channel> {
        ChannelConverter() {
            super(Channel.class);
        }
    }
}
