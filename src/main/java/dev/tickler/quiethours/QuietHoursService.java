package dev.tickler.quiethours;

import java.time.Clock;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.Collection;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;

import dev.tickler.problem.ProblemException;

/** Users' quiet hours (docs/quiet-hours.md): set, read, removed; the hand-off and the delivery read them too. */
@ApplicationScoped
public class QuietHoursService {

    private final QuietHoursRepository repository;
    private final Clock clock;

    public QuietHoursService(QuietHoursRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    /** Fails with a validation problem, writing nothing, when the windows leave a channel no free minute to defer to. */
    public Uni<StoredQuietHours> put(String tenant, String userId, QuietHours quietHours) {
        if (quietHours.policy() == QuietPolicy.DEFER) {
            Set<String> never = quietHours.channelsQuietAllWeek();
            if (!never.isEmpty()) {
                return Uni.createFrom().failure(ProblemException.invalid("windows", "leave no free minute in the week"
                        + " for " + String.join(", ", never) + "; a deferred reminder could never be sent (use policy"
                        + " skip to never send on a channel)"));
            }
        }
        return repository.put(tenant, userId, quietHours, clock.instant().truncatedTo(ChronoUnit.MICROS));
    }

    public Uni<Optional<StoredQuietHours>> find(String tenant, String userId) {
        return repository.find(tenant, userId);
    }

    /** For operators, who see every tenant. */
    public Uni<List<StoredQuietHours>> findInEveryTenant(String userId) {
        return repository.findInEveryTenant(userId);
    }

    public Uni<StoredQuietHours> get(String tenant, String userId) {
        return repository.find(tenant, userId).map(found -> found.orElseThrow(
                () -> ProblemException.notFound("user " + userId + " has no quiet hours")));
    }

    public Uni<Boolean> delete(String tenant, String userId) {
        return repository.delete(tenant, userId);
    }

    /** For a hand-off of many: the quiet hours of those users that have some. */
    public Uni<Map<TenantUser, QuietHours>> forUsers(Collection<TenantUser> users) {
        return repository.findAll(users);
    }
}
