package dev.tickler.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import dev.tickler.apiclient.ApiClient;
import dev.tickler.apiclient.ApiResponse;
import dev.tickler.apiclient.api.QuietHoursApi;
import dev.tickler.apiclient.api.RemindersApi;
import dev.tickler.apiclient.api.SchedulesApi;
import dev.tickler.apiclient.model.BatchRequest;
import dev.tickler.apiclient.model.BatchResponse;
import dev.tickler.apiclient.model.Channel;
import dev.tickler.apiclient.model.CreateReminderRequest;
import dev.tickler.apiclient.model.CreateScheduleRequest;
import dev.tickler.apiclient.model.PreviewView;
import dev.tickler.apiclient.model.QuietHoursRequest;
import dev.tickler.apiclient.model.QuietHoursView;
import dev.tickler.apiclient.model.QuietWindow;
import dev.tickler.apiclient.model.ReminderPageView;
import dev.tickler.apiclient.model.ReminderState;
import dev.tickler.apiclient.model.ReminderView;
import dev.tickler.apiclient.model.ScheduleView;
import dev.tickler.apiclient.model.UpdateReminderRequest;
import dev.tickler.testing.Api;
import dev.tickler.testing.FutureDates;

/**
 * A Java client generated from the stored API document (docs/openapi.json, by openapi-generator at
 * generate-test-sources, docs/api.md "Generating a client"), as a product engineer would generate one, used against
 * the running application over real HTTP: what the document promises, a client built only from it can do.
 */
@QuarkusTest
class GeneratedClientTest {

    private RemindersApi reminders;
    private SchedulesApi schedules;
    private QuietHoursApi quietHours;

    @BeforeEach
    void connect() {
        ApiClient client = new ApiClient();
        client.updateBaseUri("http://127.0.0.1:" + RestAssured.port);
        client.setRequestInterceptor(request -> request.header("Authorization", "Bearer " + Api.API_KEY));
        reminders = new RemindersApi(client);
        schedules = new SchedulesApi(client);
        quietHours = new QuietHoursApi(client);
    }

    @Test
    void registersReadsListsReschedulesAndCancelsAReminder() throws Exception {
        String user = Api.newUser();
        OffsetDateTime fireAt = FutureDates.at(FutureDates.day(), 9).atOffset(ZoneOffset.UTC);
        CreateReminderRequest body = new CreateReminderRequest().userId(user).channel(Channel.EMAIL)
                .template("trial_ending").fireAt(fireAt).data(Map.of("plan", "pro")).tags(List.of("trial"));

        ApiResponse<ReminderView> created = reminders.createReminderWithHttpInfo(body);
        assertThat(created.getStatusCode()).isEqualTo(201);
        ReminderView reminder = created.getData();
        assertThat(reminder.getUserId()).isEqualTo(user);
        assertThat(reminder.getChannel()).isEqualTo(Channel.EMAIL);
        assertThat(reminder.getFireAt().toInstant()).isEqualTo(fireAt.toInstant());
        assertThat(reminder.getState()).isEqualTo(ReminderState.PENDING);
        assertThat(reminder.getKey()).isNull();
        assertThat(reminder.getOccurrence()).isNull();

        assertThat(reminders.getReminder(reminder.getId()).getData()).containsEntry("plan", "pro");

        ReminderPageView page = reminders.listReminders(user, null, 10,
                List.of(ReminderState.PENDING, ReminderState.FAILED), "trial", "trial_ending");
        assertThat(page.getItems()).extracting(ReminderView::getId).containsExactly(reminder.getId());
        assertThat(reminders.listReminders(user, null, 10, null, null, "standup").getItems()).isEmpty();
        assertThat(page.getNext()).isNull();

        OffsetDateTime later = fireAt.plusHours(2);
        ReminderView rescheduled = reminders.updateReminder(reminder.getId(),
                new UpdateReminderRequest().fireAt(later).expiresAfter("PT1H"));
        assertThat(rescheduled.getFireAt().toInstant()).isEqualTo(later.toInstant());
        assertThat(rescheduled.getVersion()).isEqualTo(reminder.getVersion() + 1);
        assertThat(rescheduled.getExpiresAt().toInstant()).isEqualTo(later.toInstant().plusSeconds(3600));

        ReminderView cancelled = reminders.cancelReminder(reminder.getId());
        assertThat(cancelled.getState()).isEqualTo(ReminderState.CANCELLED);
        assertThat(reminders.getReminder(reminder.getId()).getState()).isEqualTo(ReminderState.CANCELLED);
    }

    @Test
    void registersABatchAndHearsWhichItemWasRefused() throws Exception {
        OffsetDateTime fireAt = FutureDates.at(FutureDates.day(), 10).atOffset(ZoneOffset.UTC);
        CreateReminderRequest good = new CreateReminderRequest().userId(Api.newUser()).channel(Channel.SMS)
                .template("trial_ending").fireAt(fireAt);
        CreateReminderRequest noTime = new CreateReminderRequest().userId(Api.newUser()).channel(Channel.PUSH)
                .template("trial_ending");

        BatchResponse answer = reminders.createReminderBatch(new BatchRequest().items(List.of(good, noTime)));

        assertThat(answer.getItems()).hasSize(2);
        assertThat(answer.getItems().get(0).getStatus()).isEqualTo(201);
        assertThat(answer.getItems().get(0).getReminder().getChannel()).isEqualTo(Channel.SMS);
        assertThat(answer.getItems().get(1).getStatus()).isEqualTo(400);
        assertThat(answer.getItems().get(1).getProblem().getErrors()).isNotEmpty();
    }

    @Test
    void createsAndPreviewsASchedule() throws Exception {
        LocalDate day = FutureDates.day();
        ScheduleView schedule = schedules.createSchedule(new CreateScheduleRequest().userId(Api.newUser())
                .channel(Channel.EMAIL).template("water_plants").tz("Europe/Berlin").start(day + "T08:00")
                .rrule("FREQ=DAILY"));

        PreviewView preview = schedules.previewSchedule(schedule.getId(), 3);

        assertThat(preview.getItems()).hasSize(3);
        assertThat(preview.getItems()).extracting(item -> item.getOccurrence()).containsExactly(1, 2, 3);
        Instant first = day.atTime(8, 0).atZone(java.time.ZoneId.of("Europe/Berlin")).toInstant();
        assertThat(preview.getItems().get(0).getFireAt().toInstant()).isEqualTo(first);
    }

    @Test
    void setsAUsersQuietHours() throws Exception {
        String user = Api.newUser();

        QuietHoursView stored = quietHours.putQuietHours(user, new QuietHoursRequest().tz("Europe/Berlin")
                .windows(List.of(new QuietWindow().start("22:00").end("07:00"))));

        assertThat(stored.getUserId()).isEqualTo(user);
        assertThat(stored.getWindows()).hasSize(1);
        assertThat(stored.getWindows().get(0).getDays()).hasSize(7);
        assertThat(quietHours.getQuietHours(user).getTz()).isEqualTo("Europe/Berlin");
    }
}
