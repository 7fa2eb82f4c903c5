namespace Geometry;

public interface IShape
{
    double Area();
    string Name { get; }
}

public struct Vector2
{
    public float X, Y;
    public float Length() => 0f;
}

public enum Direction { North, East, South, West }

public record Person(string First, string Last);

public record struct Size(int Width, int Height);

public delegate void Changed(object sender, EventArgs e);
