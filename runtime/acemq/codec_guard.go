package acemq

// encodeWith encodes payload with codec and returns the body with the
// content type the codec writes. A panic in the codec is an error naming it:
// "acemq: the <content type> codec panicked: <value>" (Send returns it as it
// is), or "acemq: the codec's ContentType panicked: <value>".
func encodeWith(codec Codec, payload any) ([]byte, string, error) {
	contentType, err := guarded(func() string { return "acemq: the codec's ContentType" },
		func() (string, error) { return codec.ContentType(), nil })
	if err != nil {
		return nil, "", err
	}
	body, err := guarded(func() string { return "acemq: the " + contentType + " codec" },
		func() ([]byte, error) { return codec.Encode(payload) })
	return body, contentType, err
}
