package scenario

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"spacetime/core/strictjson"
)

// A Claim is one statement of the course texts and the built-in lesson
// that shows it. The course's index (the page's start and `spacetime
// list`) lists the claims by topic, in the course's order, each a link to
// its lesson at the step that shows it.
type Claim struct {
	// Text is the claim in one sentence.
	Text string `json:"claim"`
	// Lesson is the id of the built-in lesson that shows it.
	Lesson string `json:"lesson"`
	// Step is the step that shows it, counted as the page counts them
	// (the events drawn), from 1 to the run's length.
	Step int `json:"step"`
	// Breaks names the invariant whose failure the claim is about; it has
	// failed by Step (a test holds the course to it).
	Breaks string `json:"breaks,omitempty"`
	// LinkParams are more of the link, in the link's own words, for a
	// claim that needs more than the step: "cut=32.5,38.5,35", a cut to
	// check.
	LinkParams string `json:"link_params,omitempty"`
	// Metric names a figure of the run the claim quotes, read at Step
	// ("messages_per_entry", or "sync_delay.max" for one of a figure's
	// parts), and Value is what it reads there (a test holds it).
	Metric string `json:"metric,omitempty"`
	Value  any    `json:"value,omitempty"`
}

// A CourseTopic is a part of the course and the claims its lessons show,
// in the course's order.
type CourseTopic struct {
	Name   string  `json:"topic"`
	Claims []Claim `json:"claims"`
}

//go:embed course.json
var courseFile []byte

// course is the course's index, read once; courseErr says why it could
// not be (Broken lists it).
var course, courseErr = loadCourse()

// topics are the course's topic names, in its order (Topics).
var topics = topicNames(course)

// Topics are the parts of the course, in its order: the topics of
// course.json. A lesson's topic is one of them. The caller must not
// change them.
func Topics() []string { return topics }

// Course is the course's index: its topics in order, each with the claims
// its lessons show. The caller must not change it.
func Course() []CourseTopic { return course }

// loadCourse reads course.json: every topic named once, every claim with
// its text and lesson. That each lesson exists and shows its claim is
// checked by the package's tests, which run the lessons.
func loadCourse() ([]CourseTopic, error) {
	var doc struct {
		Topics []CourseTopic `json:"topics"`
	}
	if err := strictjson.Decode(courseFile, &doc, ""); err != nil {
		return nil, err
	}
	if len(doc.Topics) == 0 {
		return nil, errors.New("topics: want the course's topics, got none")
	}
	seen := map[string]bool{}
	for i, t := range doc.Topics {
		at := fmt.Sprintf("topics[%d]", i)
		if t.Name == "" || seen[t.Name] {
			return nil, fmt.Errorf("%s.topic: want a name no other topic has, got %q", at, t.Name)
		}
		seen[t.Name] = true
		for j, c := range t.Claims {
			at := fmt.Sprintf("%s.claims[%d]", at, j)
			switch {
			case c.Text == "":
				return nil, fmt.Errorf("%s.claim: want the claim in one sentence, got none", at)
			case c.Lesson == "":
				return nil, fmt.Errorf("%s.lesson: want the id of the lesson that shows it, got none", at)
			case c.Step < 1:
				return nil, fmt.Errorf("%s.step: want the step that shows it, from 1, got %d", at, c.Step)
			case (c.Metric == "") != (c.Value == nil):
				return nil, fmt.Errorf("%s: want a metric and its value together, or neither, got metric %q and value %v", at, c.Metric, c.Value)
			}
		}
	}
	return doc.Topics, nil
}

// TopicHeading is a topic's name as a heading: "Mutual exclusion".
func TopicHeading(name string) string {
	if name == "" {
		return ""
	}
	return strings.ToUpper(name[:1]) + name[1:]
}

// topicNames are the topics' names, in order.
func topicNames(topics []CourseTopic) []string {
	names := make([]string, len(topics))
	for i, t := range topics {
		names[i] = t.Name
	}
	return names
}
