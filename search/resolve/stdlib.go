package resolve

// stdInterfaces are the method sets of the standard library's
// interfaces that projects' types most often implement, by the
// interface's name. A project without the Go tree inside it cannot see
// them: a call of a method of a value whose type is declared as one of
// these (a parameter fi os.FileInfo, a result io.ReadCloser) may call a
// target whose type implements the set, and is listed as not resolved
// rather than left out. Values of other types from outside the project
// call none of the project's methods.
var stdInterfaces = map[string][][]string{
	"FileInfo":        {{"Name", "Size", "Mode", "ModTime", "IsDir", "Sys"}},
	"DirEntry":        {{"Name", "IsDir", "Type", "Info"}},
	"File":            {{"Stat", "Read", "Close"}},
	"FS":              {{"Open"}},
	"Interface":       {{"Len", "Less", "Swap"}, {"Push", "Pop", "Len", "Less", "Swap"}},
	"Context":         {{"Deadline", "Done", "Err", "Value"}},
	"Value":           {{"Set", "String"}},
	"Hash":            {{"Sum", "Reset", "Size", "BlockSize", "Write"}},
	"Locker":          {{"Lock", "Unlock"}},
	"Conn":            {{"Read", "Write", "Close", "LocalAddr", "RemoteAddr", "SetDeadline", "SetReadDeadline", "SetWriteDeadline"}},
	"Listener":        {{"Accept", "Close", "Addr"}},
	"ResponseWriter":  {{"Header", "Write", "WriteHeader"}},
	"Handler":         {{"ServeHTTP"}},
	"RoundTripper":    {{"RoundTrip"}},
	"Reader":          {{"Read"}},
	"Writer":          {{"Write"}},
	"Closer":          {{"Close"}},
	"ReadCloser":      {{"Read", "Close"}},
	"WriteCloser":     {{"Write", "Close"}},
	"ReadWriter":      {{"Read", "Write"}},
	"ReadWriteCloser": {{"Read", "Write", "Close"}},
	"Seeker":          {{"Seek"}},
	"ReadSeeker":      {{"Read", "Seek"}},
	"ReaderAt":        {{"ReadAt"}},
	"WriterAt":        {{"WriteAt"}},
	"WriterTo":        {{"WriteTo"}},
	"ReaderFrom":      {{"ReadFrom"}},
	"ByteReader":      {{"ReadByte"}},
	"StringWriter":    {{"WriteString"}},
	"Stringer":        {{"String"}},
	"GoStringer":      {{"GoString"}},
	"Formatter":       {{"Format"}},
	"Marshaler":       {{"MarshalJSON"}, {"MarshalText"}, {"MarshalBinary"}},
	"Unmarshaler":     {{"UnmarshalJSON"}, {"UnmarshalText"}, {"UnmarshalBinary"}},
	"TextMarshaler":   {{"MarshalText"}},
	"TextUnmarshaler": {{"UnmarshalText"}},
}
